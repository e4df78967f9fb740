// The sealed C++ harness's checker side (standard library and POSIX only), included by the tests'
// file: the run's key, authenticated result lines (HMAC-SHA256), and the program's process, which
// the stubs of its functions call.  Before the tests run it makes itself not dumpable, deletes its
// key, its sources and its binary, and starts the program's process.
#include <fcntl.h>
#include <poll.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>
namespace sejury {
// How a call of the program fails, told apart for the tests' assertions (``gtest.hpp``): the program
// threw (``threw``), or its process ended, hung or answered what cannot be read (``broken``), which
// no check that expects an exception may count as one; and the unit it happened in fails even if the
// test caught it (``catch (...)``): ``fault``, read by each unit (cpp.py).
inline std::string fault;
struct threw : std::runtime_error { using std::runtime_error::runtime_error; };
struct broken : std::runtime_error {
  explicit broken(const std::string& why) : std::runtime_error(why) { if (fault.empty()) fault = why; }
};
// a unit starts with the suite's setup's fault, if it had one (its values may come from that call)
inline void begin() {
  static bool begun = false;
  static std::string setup;
  if (!begun) setup = fault, begun = true;
  fault = setup;
}
inline std::array<uint32_t, 8> sha256(const std::string& msg) {
  static const uint32_t k[64] = {
      0x428a2f98, 0x71374491, 0xb5c0fbcf, 0xe9b5dba5, 0x3956c25b, 0x59f111f1, 0x923f82a4, 0xab1c5ed5,
      0xd807aa98, 0x12835b01, 0x243185be, 0x550c7dc3, 0x72be5d74, 0x80deb1fe, 0x9bdc06a7, 0xc19bf174,
      0xe49b69c1, 0xefbe4786, 0x0fc19dc6, 0x240ca1cc, 0x2de92c6f, 0x4a7484aa, 0x5cb0a9dc, 0x76f988da,
      0x983e5152, 0xa831c66d, 0xb00327c8, 0xbf597fc7, 0xc6e00bf3, 0xd5a79147, 0x06ca6351, 0x14292967,
      0x27b70a85, 0x2e1b2138, 0x4d2c6dfc, 0x53380d13, 0x650a7354, 0x766a0abb, 0x81c2c92e, 0x92722c85,
      0xa2bfe8a1, 0xa81a664b, 0xc24b8b70, 0xc76c51a3, 0xd192e819, 0xd6990624, 0xf40e3585, 0x106aa070,
      0x19a4c116, 0x1e376c08, 0x2748774c, 0x34b0bcb5, 0x391c0cb3, 0x4ed8aa4a, 0x5b9cca4f, 0x682e6ff3,
      0x748f82ee, 0x78a5636f, 0x84c87814, 0x8cc70208, 0x90befffa, 0xa4506ceb, 0xbef9a3f7, 0xc67178f2};
  std::array<uint32_t, 8> h = {0x6a09e667, 0xbb67ae85, 0x3c6ef372, 0xa54ff53a,
                               0x510e527f, 0x9b05688c, 0x1f83d9ab, 0x5be0cd19};
  std::string m = msg;
  uint64_t bits = (uint64_t) msg.size() * 8;
  m += (char) 0x80;
  while (m.size() % 64 != 56) m += (char) 0;
  for (int i = 7; i >= 0; i--) m += (char) ((bits >> (8 * i)) & 0xff);
  auto rot = [](uint32_t x, int n) { return (x >> n) | (x << (32 - n)); };
  for (size_t off = 0; off < m.size(); off += 64) {
    uint32_t w[64];
    for (int i = 0; i < 16; i++)
      w[i] = ((uint32_t) (unsigned char) m[off + 4 * i] << 24) | ((uint32_t) (unsigned char) m[off + 4 * i + 1] << 16) |
             ((uint32_t) (unsigned char) m[off + 4 * i + 2] << 8) | (uint32_t) (unsigned char) m[off + 4 * i + 3];
    for (int i = 16; i < 64; i++) {
      uint32_t s0 = rot(w[i - 15], 7) ^ rot(w[i - 15], 18) ^ (w[i - 15] >> 3);
      uint32_t s1 = rot(w[i - 2], 17) ^ rot(w[i - 2], 19) ^ (w[i - 2] >> 10);
      w[i] = w[i - 16] + s0 + w[i - 7] + s1;
    }
    uint32_t a = h[0], b = h[1], c = h[2], d = h[3], e = h[4], f = h[5], g = h[6], hh = h[7];
    for (int i = 0; i < 64; i++) {
      uint32_t t1 = hh + (rot(e, 6) ^ rot(e, 11) ^ rot(e, 25)) + ((e & f) ^ (~e & g)) + k[i] + w[i];
      uint32_t t2 = (rot(a, 2) ^ rot(a, 13) ^ rot(a, 22)) + ((a & b) ^ (a & c) ^ (b & c));
      hh = g; g = f; f = e; e = d + t1; d = c; c = b; b = a; a = t1 + t2;
    }
    h[0] += a; h[1] += b; h[2] += c; h[3] += d; h[4] += e; h[5] += f; h[6] += g; h[7] += hh;
  }
  return h;
}
inline std::string bytes(const std::array<uint32_t, 8>& h) {
  std::string out;
  for (uint32_t x : h) for (int i = 3; i >= 0; i--) out += (char) ((x >> (8 * i)) & 0xff);
  return out;
}
inline std::string hmac_hex(const std::string& key, const std::string& msg) {
  std::string k = key.size() > 64 ? bytes(sha256(key)) : key;
  k.resize(64, '\0');
  std::string ipad(64, 0), opad(64, 0);
  for (int i = 0; i < 64; i++) { ipad[i] = (char) (k[i] ^ 0x36); opad[i] = (char) (k[i] ^ 0x5c); }
  std::string d = bytes(sha256(opad + bytes(sha256(ipad + msg))));
  std::string hex;
  char b[3];
  for (unsigned char c : d) { snprintf(b, sizeof b, "%02x", c); hex += b; }
  return hex.substr(0, 32);
}
inline std::string key;
inline int seq = 0;
inline void emit(std::string line) {
  for (auto& c : line) if (c == '\n' || c == '\r') c = ' ';
#ifdef sejury_plain  // the tests in the program's own binary (cpp.py's plain_harness): no key; only failures count
  printf("%s\n", line.c_str());
  fflush(stdout);
  return;
#endif
  std::string mac = hmac_hex(key, std::to_string(seq) + "|" + line);
  printf("@@M %d %s %s\n", seq, mac.c_str(), line.c_str());
  fflush(stdout);
  seq++;
}
inline pid_t server = -1;
inline int to_server = -1, from_server = -1;
inline std::string pending;
inline void kill_server() {
  if (server > 0) { kill(server, SIGKILL); waitpid(server, nullptr, 0); }
  if (to_server >= 0) close(to_server);
  if (from_server >= 0) close(from_server);
  server = -1; to_server = from_server = -1; pending.clear();
}
// a line from the program's process within ms milliseconds; false on timeout or end
inline bool read_line(std::string& out, int ms) {
  auto deadline = std::chrono::steady_clock::now() + std::chrono::milliseconds(ms);
  for (;;) {
    size_t nl = pending.find('\n');
    if (nl != std::string::npos) { out = pending.substr(0, nl); pending.erase(0, nl + 1); return true; }
    int left = (int) std::chrono::duration_cast<std::chrono::milliseconds>(deadline - std::chrono::steady_clock::now()).count();
    if (left <= 0) return false;
    pollfd p{from_server, POLLIN, 0};
    if (poll(&p, 1, left) <= 0) continue;
    char buf[65536];
    ssize_t n = read(from_server, buf, sizeof buf);
    if (n <= 0) return false;
    pending.append(buf, (size_t) n);
  }
}
inline bool start() {
  int ans[2], req[2];
  if (pipe(ans) || pipe(req)) return false;
  pid_t pid = fork();
  if (pid < 0) return false;
  if (pid == 0) {
    int null = open("/dev/null", O_RDWR);
    dup2(null, 0); dup2(null, 1); dup2(null, 2);
    int a = dup(ans[1]), r = dup(req[0]);
    dup2(a, 3); dup2(r, 4);
    for (int fd = 5; fd < 1024; fd++) close(fd);
    execl("./sejury_srv", "sejury_srv", (char*) nullptr);
    _exit(127);
  }
  close(ans[1]); close(req[0]);
  signal(SIGPIPE, SIG_IGN);
  server = pid; to_server = req[1]; from_server = ans[0];
  std::string line;
  if (!read_line(line, 20000) || line != "ready") { kill_server(); return false; }
  return true;
}
// why the program's process stopped answering during a call; it is gone afterwards (the next call
// starts it again).  SIGILL is the trap the program is built with for a signed integer overflow.
inline std::string gone() {
  std::string why = "the program's process ended or took too long during the call";
  int st = 0;
  for (int i = 0; i < 20 && server > 0; i++) {
    if (waitpid(server, &st, WNOHANG) == server) {
      server = -1;  // reaped: kill_server must not signal its pid again
      if (WIFSIGNALED(st) && WTERMSIG(st) == SIGILL)
        why = "the program's signed integer arithmetic overflowed during the call (undefined behaviour in C++)";
      else if (WIFSIGNALED(st))
        why = "the program's process was ended by signal " + std::to_string(WTERMSIG(st)) + " during the call";
      else if (WIFEXITED(st))
        why = "the program's process exited with status " + std::to_string(WEXITSTATUS(st)) + " during the call";
      break;
    }
    usleep(5000);
  }
  kill_server();
  return why;
}
template <class R> R call(const std::string& name, const std::string& args) {
  if (server < 0 && !start()) throw broken("the program's process did not start");
  std::string msg = name + "\t" + args + "\n";
  if (write(to_server, msg.data(), msg.size()) != (ssize_t) msg.size()) {
    kill_server();
    throw broken("the program's process ended");
  }
  std::string line;
  if (!read_line(line, 5000)) throw broken(gone());
  if (!line.empty() && line[0] == '!') throw threw("the program threw: " + line.substr(1));
  if constexpr (!std::is_void_v<R>) {
    try {
      SejuryIn in{line};
      in.expect('[');
      R v = sejury_dec<R>(in);
      in.expect(']');
      return v;
    } catch (const std::exception& e) {
      throw broken(std::string("the program's answer could not be read: ") + e.what());
    }
  }
}
inline void setup(const char* self) {
  prctl(PR_SET_DUMPABLE, 0, 0, 0, 0);
  std::ifstream f("seal");
  std::getline(f, key);
  f.close();
  unlink("seal");
  unlink("test_main.cpp");
  unlink("checker.hpp");
  unlink(self);
  if (!start()) {
    emit("@@LOAD FAIL the program's process did not start");
    emit("@@DONE");
    exit(3);
  }
  emit("@@LOAD OK");
}
}  // namespace sejury
