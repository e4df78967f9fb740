// The sealed C++ harness's plain data (standard library only), included by both sides: values of the
// standard types travel as JSON-like text by their declared types (numbers, bool, char, std::string,
// sequences, sets, maps, pairs, tuples, optionals); a type it does not know does not compile.
#include <bits/stdc++.h>
struct SejuryIn {
  const std::string& s;
  size_t i = 0;
  void ws() { while (i < s.size() && isspace((unsigned char) s[i])) i++; }
  char peek() { ws(); return i < s.size() ? s[i] : '\0'; }
  void expect(char c) {
    if (peek() != c) throw std::runtime_error(std::string("sejury: malformed value, expected ") + c);
    i++;
  }
  std::string token() {
    ws();
    size_t j = i;
    while (j < s.size() && (isalnum((unsigned char) s[j]) || strchr("+-.", s[j]))) j++;
    std::string t = s.substr(i, j - i);
    i = j;
    if (t.empty()) throw std::runtime_error("sejury: malformed value");
    return t;
  }
};
template <class T, class = void> struct SejuryCodec;
template <class T> void sejury_enc(std::string& o, const T& v) { SejuryCodec<std::decay_t<T>>::enc(o, v); }
template <class T> std::decay_t<T> sejury_dec(SejuryIn& in) { return SejuryCodec<std::decay_t<T>>::dec(in); }
template <> struct SejuryCodec<bool> {
  static void enc(std::string& o, bool v) { o += v ? "true" : "false"; }
  static bool dec(SejuryIn& in) {
    std::string t = in.token();
    if (t == "true") return true;
    if (t == "false") return false;
    throw std::runtime_error("sejury: not a bool");
  }
};
template <class T> struct SejuryCodec<T, std::enable_if_t<std::is_arithmetic_v<T> && !std::is_same_v<T, bool>>> {
  static void enc(std::string& o, T v) {
    if constexpr (std::is_floating_point_v<T>) { char b[64]; snprintf(b, sizeof b, "%.17Lg", (long double) v); o += b; }
    else if constexpr (std::is_signed_v<T>) o += std::to_string((long long) v);
    else o += std::to_string((unsigned long long) v);
  }
  static T dec(SejuryIn& in) {
    std::string t = in.token();
    if constexpr (std::is_floating_point_v<T>) return (T) std::strtold(t.c_str(), nullptr);
    else if constexpr (std::is_signed_v<T>) return (T) std::stoll(t);
    else return (T) std::stoull(t);
  }
};
template <> struct SejuryCodec<std::string> {
  static void enc(std::string& o, const std::string& v) {
    o += '"';
    for (unsigned char c : v) {
      if (c == '"' || c == '\\') { o += '\\'; o += (char) c; }
      else if (c < 0x20 || c >= 0x7f) { char b[8]; snprintf(b, sizeof b, "\\x%02x", c); o += b; }
      else o += (char) c;
    }
    o += '"';
  }
  static std::string dec(SejuryIn& in) {
    in.expect('"');
    std::string out;
    while (in.i < in.s.size() && in.s[in.i] != '"') {
      char c = in.s[in.i++];
      if (c == '\\' && in.i < in.s.size()) {
        char e = in.s[in.i++];
        if (e == 'x' && in.i + 1 < in.s.size()) { out += (char) std::stoi(in.s.substr(in.i, 2), nullptr, 16); in.i += 2; }
        else out += e;
      } else out += c;
    }
    in.expect('"');
    return out;
  }
};
template <class T> struct SejuryCodec<std::optional<T>> {
  static void enc(std::string& o, const std::optional<T>& v) {
    if (!v) { o += "null"; return; }
    o += '['; sejury_enc(o, *v); o += ']';
  }
  static std::optional<T> dec(SejuryIn& in) {
    if (in.peek() == 'n') { in.token(); return std::nullopt; }
    in.expect('['); T v = sejury_dec<T>(in); in.expect(']');
    return v;
  }
};
template <class... A> struct SejuryCodec<std::tuple<A...>> {
  static void enc(std::string& o, const std::tuple<A...>& v) {
    o += '[';
    bool first = true;
    std::apply([&](const auto&... x) { ((o += first ? "" : ",", first = false, sejury_enc(o, x)), ...); }, v);
    o += ']';
  }
  template <size_t... I> static std::tuple<A...> read(SejuryIn& in, std::index_sequence<I...>) {
    std::tuple<A...> t;
    ((I ? in.expect(',') : void(), std::get<I>(t) = sejury_dec<A>(in)), ...);
    return t;
  }
  static std::tuple<A...> dec(SejuryIn& in) {
    in.expect('['); auto t = read(in, std::index_sequence_for<A...>{}); in.expect(']');
    return t;
  }
};
template <class A, class B> struct SejuryCodec<std::pair<A, B>> {
  static void enc(std::string& o, const std::pair<A, B>& v) {
    o += '['; sejury_enc(o, v.first); o += ','; sejury_enc(o, v.second); o += ']';
  }
  static std::pair<A, B> dec(SejuryIn& in) {
    in.expect('['); A a = sejury_dec<A>(in); in.expect(','); B b = sejury_dec<B>(in); in.expect(']');
    return {a, b};
  }
};
template <class C> struct SejuryItems {
  static void enc(std::string& o, const C& v) {
    o += '[';
    bool first = true;
    for (const auto& x : v) { if (!first) o += ','; first = false; sejury_enc(o, x); }
    o += ']';
  }
  static C dec(SejuryIn& in) {
    C c;
    in.expect('[');
    if (in.peek() == ']') { in.i++; return c; }
    for (;;) {
      c.insert(c.end(), sejury_dec<typename C::value_type>(in));
      if (in.peek() == ',') { in.i++; continue; }
      in.expect(']');
      return c;
    }
  }
};
template <class T> struct SejuryCodec<std::vector<T>> : SejuryItems<std::vector<T>> {};
template <class T> struct SejuryCodec<std::list<T>> : SejuryItems<std::list<T>> {};
template <class T> struct SejuryCodec<std::deque<T>> : SejuryItems<std::deque<T>> {};
template <class T> struct SejuryCodec<std::set<T>> : SejuryItems<std::set<T>> {};
template <class T> struct SejuryCodec<std::unordered_set<T>> : SejuryItems<std::unordered_set<T>> {};
template <class K, class V> struct SejuryMapItems {
  template <class M> static void enc(std::string& o, const M& v) {
    o += '[';
    bool first = true;
    for (const auto& [k, x] : v) {
      if (!first) o += ',';
      first = false;
      o += '['; sejury_enc(o, k); o += ','; sejury_enc(o, x); o += ']';
    }
    o += ']';
  }
  template <class M> static M read(SejuryIn& in) {
    M m;
    in.expect('[');
    if (in.peek() == ']') { in.i++; return m; }
    for (;;) {
      in.expect('['); K k = sejury_dec<K>(in); in.expect(','); V x = sejury_dec<V>(in); in.expect(']');
      m.emplace(std::move(k), std::move(x));
      if (in.peek() == ',') { in.i++; continue; }
      in.expect(']');
      return m;
    }
  }
};
template <class K, class V> struct SejuryCodec<std::map<K, V>> {
  static void enc(std::string& o, const std::map<K, V>& v) { SejuryMapItems<K, V>::enc(o, v); }
  static std::map<K, V> dec(SejuryIn& in) { return SejuryMapItems<K, V>::template read<std::map<K, V>>(in); }
};
template <class K, class V> struct SejuryCodec<std::unordered_map<K, V>> {
  static void enc(std::string& o, const std::unordered_map<K, V>& v) { SejuryMapItems<K, V>::enc(o, v); }
  static std::unordered_map<K, V> dec(SejuryIn& in) {
    return SejuryMapItems<K, V>::template read<std::unordered_map<K, V>>(in);
  }
};
