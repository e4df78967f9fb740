// GoogleTest's assertions as the sealed checker's own (``_gtest.py``): the sandbox has no GoogleTest,
// and each check is a unit of its own, so EXPECT_* and ASSERT_* alike throw on failure, saying what
// they compared, shown as the recorder shows values (``sejury_show``, defined before this).  Each
// check's text is made where the test wrote it (``#a``), before a function's name becomes its stub.
#define sejury_cmp(what, op, a, b) do { auto&& sejury_a = (a); auto&& sejury_b = (b); \
  if (!(sejury_a op sejury_b)) throw std::runtime_error(std::string(what) + ": " + \
      sejury_show(sejury_a) + " " #op " " + sejury_show(sejury_b) + " is false"); } while (0)
#define sejury_truth(what, c, want) do { if (static_cast<bool>(c) != (want)) \
  throw std::runtime_error(what); } while (0)
#define sejury_near(what, a, b, e) do { double sejury_a = (a), sejury_b = (b); \
  if (!(std::fabs(sejury_a - sejury_b) <= (e))) throw std::runtime_error(std::string(what) + ": " + \
      sejury_show(sejury_a) + " and " + sejury_show(sejury_b) + " differ by more than " + sejury_show((double) (e))); \
  } while (0)
#define sejury_ulps(what, a, b, eps) do { double sejury_x = (a), sejury_y = (b); sejury_near(what, sejury_x, \
  sejury_y, 4 * (eps) * std::max(std::fabs(sejury_x), std::fabs(sejury_y))); } while (0)
// An exception the program threw counts as any type (its type does not cross processes); its process
// ending, hanging or answering garbage (``sejury::broken``) is never a throw the test expected.
#define sejury_throw(what, s, T) do { bool sejury_t = false; try { s; } catch (const sejury::broken&) { throw; } \
  catch (const sejury::threw&) { sejury_t = true; } catch (const T&) { sejury_t = true; } \
  catch (...) { throw std::runtime_error(std::string(what) + ": another exception"); } \
  if (!sejury_t) throw std::runtime_error(std::string(what) + ": nothing thrown"); } while (0)
#define sejury_any_throw(what, s) do { bool sejury_t = false; try { s; } catch (const sejury::broken&) { throw; } \
  catch (...) { sejury_t = true; } \
  if (!sejury_t) throw std::runtime_error(std::string(what) + ": nothing thrown"); } while (0)
#define sejury_no_throw(what, s) do { try { s; } catch (...) { \
  throw std::runtime_error(std::string(what) + ": it threw"); } } while (0)
#define EXPECT_EQ(a, b) sejury_cmp("EXPECT_EQ(" #a ", " #b ")", ==, a, b)
#define EXPECT_NE(a, b) sejury_cmp("EXPECT_NE(" #a ", " #b ")", !=, a, b)
#define EXPECT_LT(a, b) sejury_cmp("EXPECT_LT(" #a ", " #b ")", <, a, b)
#define EXPECT_LE(a, b) sejury_cmp("EXPECT_LE(" #a ", " #b ")", <=, a, b)
#define EXPECT_GT(a, b) sejury_cmp("EXPECT_GT(" #a ", " #b ")", >, a, b)
#define EXPECT_GE(a, b) sejury_cmp("EXPECT_GE(" #a ", " #b ")", >=, a, b)
#define EXPECT_TRUE(c) sejury_truth("EXPECT_TRUE(" #c ")", c, true)
#define EXPECT_FALSE(c) sejury_truth("EXPECT_FALSE(" #c ")", c, false)
#define EXPECT_STREQ(a, b) sejury_cmp("EXPECT_STREQ(" #a ", " #b ")", ==, std::string(a), std::string(b))
#define EXPECT_STRNE(a, b) sejury_cmp("EXPECT_STRNE(" #a ", " #b ")", !=, std::string(a), std::string(b))
#define EXPECT_NEAR(a, b, e) sejury_near("EXPECT_NEAR(" #a ", " #b ", " #e ")", a, b, e)
#define EXPECT_DOUBLE_EQ(a, b) sejury_ulps("EXPECT_DOUBLE_EQ(" #a ", " #b ")", a, b, DBL_EPSILON)
#define EXPECT_FLOAT_EQ(a, b) sejury_ulps("EXPECT_FLOAT_EQ(" #a ", " #b ")", a, b, FLT_EPSILON)
#define EXPECT_THROW(s, T) sejury_throw("EXPECT_THROW(" #s ", " #T ")", s, T)
#define EXPECT_ANY_THROW(s) sejury_any_throw("EXPECT_ANY_THROW(" #s ")", s)
#define EXPECT_NO_THROW(s) sejury_no_throw("EXPECT_NO_THROW(" #s ")", s)
#define ASSERT_EQ(a, b) sejury_cmp("ASSERT_EQ(" #a ", " #b ")", ==, a, b)
#define ASSERT_NE(a, b) sejury_cmp("ASSERT_NE(" #a ", " #b ")", !=, a, b)
#define ASSERT_LT(a, b) sejury_cmp("ASSERT_LT(" #a ", " #b ")", <, a, b)
#define ASSERT_LE(a, b) sejury_cmp("ASSERT_LE(" #a ", " #b ")", <=, a, b)
#define ASSERT_GT(a, b) sejury_cmp("ASSERT_GT(" #a ", " #b ")", >, a, b)
#define ASSERT_GE(a, b) sejury_cmp("ASSERT_GE(" #a ", " #b ")", >=, a, b)
#define ASSERT_TRUE(c) sejury_truth("ASSERT_TRUE(" #c ")", c, true)
#define ASSERT_FALSE(c) sejury_truth("ASSERT_FALSE(" #c ")", c, false)
#define ASSERT_STREQ(a, b) sejury_cmp("ASSERT_STREQ(" #a ", " #b ")", ==, std::string(a), std::string(b))
#define ASSERT_STRNE(a, b) sejury_cmp("ASSERT_STRNE(" #a ", " #b ")", !=, std::string(a), std::string(b))
#define ASSERT_NEAR(a, b, e) sejury_near("ASSERT_NEAR(" #a ", " #b ", " #e ")", a, b, e)
#define ASSERT_DOUBLE_EQ(a, b) sejury_ulps("ASSERT_DOUBLE_EQ(" #a ", " #b ")", a, b, DBL_EPSILON)
#define ASSERT_FLOAT_EQ(a, b) sejury_ulps("ASSERT_FLOAT_EQ(" #a ", " #b ")", a, b, FLT_EPSILON)
#define ASSERT_THROW(s, T) sejury_throw("ASSERT_THROW(" #s ", " #T ")", s, T)
#define ASSERT_ANY_THROW(s) sejury_any_throw("ASSERT_ANY_THROW(" #s ")", s)
#define ASSERT_NO_THROW(s) sejury_no_throw("ASSERT_NO_THROW(" #s ")", s)
// Fixtures (``TEST_F``, ``TEST_P``): a check runs in a class derived from the test file's fixture
// (``_gtest._in_fixture``): ``SetUpTestSuite`` once before the suite's first check (a failure there
// fails every later check of the suite), ``SetUp`` before the check, ``TearDown`` after it (after a
// failure too; a failure of its own fails the check).  ``GetParam()`` is the row's value.
namespace testing {
struct Test {
  virtual ~Test() = default;
  virtual void SetUp() {}
  virtual void TearDown() {}
  static void SetUpTestSuite() {}
  static void TearDownTestSuite() {}
  static void SetUpTestCase() {}
  static void TearDownTestCase() {}
};
template <class T> struct WithParamInterface {
  using ParamType = T;
  static inline const T* sejury_param = nullptr;
  static const T& GetParam() { return *sejury_param; }
};
template <class T> struct TestWithParam : Test, WithParamInterface<T> {};
struct AssertionResult {
  bool sejury_ok;
  std::string sejury_message;
  explicit operator bool() const { return sejury_ok; }
  template <class V> AssertionResult& operator<<(const V& v) {
    std::ostringstream o; o << v; sejury_message += o.str(); return *this;
  }
};
inline AssertionResult AssertionSuccess() { return {true, ""}; }
inline AssertionResult AssertionFailure() { return {false, ""}; }
}  // namespace testing
template <class F> int sejury_suite_state = 0;  // 0: not set up, 1: set up, 2: its set-up failed
#define sejury_fixture_open(F) \
  static void sejury_suite() { \
    if (sejury_suite_state<F> == 0) { sejury_suite_state<F> = 2; SetUpTestSuite(); SetUpTestCase(); \
                                      sejury_suite_state<F> = 1; } \
    if (sejury_suite_state<F> == 2) throw std::runtime_error("the suite's SetUpTestSuite failed"); } \
  void sejury_run() { SetUp(); try {
#define sejury_fixture_close } catch (...) { try { TearDown(); } catch (...) {} throw; } TearDown(); } }; \
  sejury_test::sejury_suite(); sejury_test().sejury_run();
// gMock's matchers for EXPECT_THAT/ASSERT_THAT, on the values the checker decoded: a matcher is a
// predicate and the text it was written as (``#m``); an argument that is no matcher means Eq(it).
namespace testing {
template <class P> struct SejuryMatcher { P pred; };
template <class T> struct sejury_is_matcher : std::false_type {};
template <class P> struct sejury_is_matcher<SejuryMatcher<P>> : std::true_type {};
template <class P> SejuryMatcher<P> sejury_matcher(P p) { return {p}; }
template <class M, class T> bool sejury_match(const M& m, const T& v) {
  if constexpr (sejury_is_matcher<M>::value) return m.pred(v);
  else return v == m;
}
template <class C> size_t sejury_size(const C& c) { return (size_t) std::distance(std::begin(c), std::end(c)); }
inline const auto _ = sejury_matcher([](const auto&) { return true; });
template <class V> auto Eq(V v) { return sejury_matcher([v](const auto& x) { return x == v; }); }
template <class V> auto Ne(V v) { return sejury_matcher([v](const auto& x) { return x != v; }); }
template <class V> auto Lt(V v) { return sejury_matcher([v](const auto& x) { return x < v; }); }
template <class V> auto Le(V v) { return sejury_matcher([v](const auto& x) { return x <= v; }); }
template <class V> auto Gt(V v) { return sejury_matcher([v](const auto& x) { return x > v; }); }
template <class V> auto Ge(V v) { return sejury_matcher([v](const auto& x) { return x >= v; }); }
inline auto IsTrue() { return sejury_matcher([](const auto& x) { return static_cast<bool>(x); }); }
inline auto IsFalse() { return sejury_matcher([](const auto& x) { return !static_cast<bool>(x); }); }
inline auto IsEmpty() { return sejury_matcher([](const auto& x) { return sejury_size(x) == 0; }); }
template <class M> auto SizeIs(M m) { return sejury_matcher([m](const auto& x) { return sejury_match(m, sejury_size(x)); }); }
inline auto DoubleNear(double v, double e) { return sejury_matcher([v, e](const auto& x) { return std::fabs(x - v) <= e; }); }
inline auto DoubleEq(double v) {
  return sejury_matcher([v](const auto& x) { return std::fabs(x - v) <= 4 * DBL_EPSILON * std::max(std::fabs((double) x), std::fabs(v)); });
}
inline auto FloatEq(double v) {
  return sejury_matcher([v](const auto& x) { return std::fabs(x - v) <= 4 * FLT_EPSILON * std::max(std::fabs((double) x), std::fabs(v)); });
}
inline auto HasSubstr(std::string s) { return sejury_matcher([s](const auto& x) { return std::string(x).find(s) != std::string::npos; }); }
inline auto StartsWith(std::string s) { return sejury_matcher([s](const auto& x) { return std::string(x).rfind(s, 0) == 0; }); }
inline auto EndsWith(std::string s) {
  return sejury_matcher([s](const auto& x) { std::string t(x); return t.size() >= s.size() && t.compare(t.size() - s.size(), s.size(), s) == 0; });
}
template <class M> auto Not(M m) { return sejury_matcher([m](const auto& x) { return !sejury_match(m, x); }); }
template <class... M> auto AllOf(M... ms) { return sejury_matcher([ms...](const auto& x) { return (sejury_match(ms, x) && ...); }); }
template <class... M> auto AnyOf(M... ms) { return sejury_matcher([ms...](const auto& x) { return (sejury_match(ms, x) || ...); }); }
template <class M> auto Contains(M m) {
  return sejury_matcher([m](const auto& c) { for (const auto& e : c) if (sejury_match(m, e)) return true; return false; });
}
template <class M> auto Each(M m) {
  return sejury_matcher([m](const auto& c) { for (const auto& e : c) if (!sejury_match(m, e)) return false; return true; });
}
template <class... M> auto ElementsAre(M... ms) {
  return sejury_matcher([ms...](const auto& c) {
    if (sejury_size(c) != sizeof...(ms)) return false;
    auto it = std::begin(c);
    bool ok = true;
    ((ok = ok && sejury_match(ms, *it), ++it), ...);
    return ok;
  });
}
template <class V> auto ElementsAreArray(V v) {
  return sejury_matcher([v](const auto& c) { return std::equal(std::begin(c), std::end(c), std::begin(v), std::end(v)); });
}
template <class E, class M> std::function<bool(const E&)> sejury_predicate(M m) {
  return [m](const E& e) { return sejury_match(m, e); };
}
template <class... M> auto UnorderedElementsAre(M... ms) {  // a one-to-one pairing of elements and matchers
  return sejury_matcher([ms...](const auto& c) {
    using E = std::decay_t<decltype(*std::begin(c))>;
    std::vector<std::function<bool(const E&)>> fs{sejury_predicate<E>(ms)...};
    std::vector<E> es(std::begin(c), std::end(c));
    if (es.size() != fs.size()) return false;
    std::vector<bool> used(es.size(), false);
    std::function<bool(size_t)> pair = [&](size_t k) {
      if (k == fs.size()) return true;
      for (size_t i = 0; i < es.size(); i++)
        if (!used[i] && fs[k](es[i])) { used[i] = true; if (pair(k + 1)) return true; used[i] = false; }
      return false;
    };
    return pair(0);
  });
}
template <class A, class B> auto Pair(A a, B b) {
  return sejury_matcher([a, b](const auto& p) { return sejury_match(a, p.first) && sejury_match(b, p.second); });
}
}  // namespace testing
#define sejury_that(what, v, m) do { auto&& sejury_v = (v); if (!::testing::sejury_match(m, sejury_v)) \
  throw std::runtime_error(std::string(what) + ": " + sejury_show(sejury_v) + " does not match"); } while (0)
#define EXPECT_THAT(v, m) sejury_that("EXPECT_THAT(" #v ", " #m ")", v, m)
#define ASSERT_THAT(v, m) sejury_that("ASSERT_THAT(" #v ", " #m ")", v, m)
