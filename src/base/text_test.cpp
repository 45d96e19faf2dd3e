#include "base/text.h"

#include "catch.h"

using namespace rocmdoc;

TEST_CASE("looks_binary tells text from garbage", "[text]") {
  CHECK_FALSE(looks_binary(""));
  CHECK_FALSE(looks_binary("Package: rocm\nStatus: install ok installed\n\tindented\r\n"));
  CHECK(looks_binary(std::string("abc\0def", 7)));
  CHECK(looks_binary(std::string(100, '\x01')));
  std::string mostly_text(100, 'a');
  mostly_text.replace(0, 4, "\x02\x03\x04\x05");  // 4% control bytes: still text
  CHECK_FALSE(looks_binary(mostly_text));
  mostly_text.replace(4, 2, "\x06\x07");  // 6%
  CHECK(looks_binary(mostly_text));
}

TEST_CASE("looks_binary counts control bytes the same in 64-byte blocks and in the tail", "[text]") {
  // 200 bytes: 3 whole blocks and a tail of 8; 5% is 10 control bytes.
  std::string text(200, 'a');
  for (size_t at : {0, 63, 64, 127, 128, 191, 192, 195, 198, 199}) text[at] = '\x1f';  // 10: not more than 5%
  CHECK_FALSE(looks_binary(text));
  text[100] = '\x1b';  // 11, the extra one mid-block
  CHECK(looks_binary(text));
  text[100] = 'a', text[197] = '\x1b';  // 11, the extra one in the tail
  CHECK(looks_binary(text));
  // Tab, newline and carriage return are text wherever they fall.
  std::string whitespace(200, '\t');
  for (size_t i = 0; i < whitespace.size(); i += 3) whitespace[i] = i % 2 ? '\n' : '\r';
  CHECK_FALSE(looks_binary(whitespace));
}

TEST_CASE("looks_binary finds a NUL anywhere in a large file, judges control bytes by the start", "[text]") {
  std::string big(3 << 20, 'x');
  CHECK_FALSE(looks_binary(big));
  big[big.size() - 1] = '\0';
  CHECK(looks_binary(big));
  big[big.size() - 1] = 'x';
  // Control bytes after the first 64 KiB are not counted.
  std::fill(big.begin() + (1 << 20), big.end(), '\x01');
  CHECK_FALSE(looks_binary(big));
  std::fill(big.begin(), big.begin() + 8192, '\x01');
  CHECK(looks_binary(big));
}

TEST_CASE("replace_all replaces every occurrence once and leaves an empty pattern alone", "[text]") {
  CHECK(replace_all("{a}-{a}", "{a}", "x") == "x-x");
  CHECK(replace_all("aa", "a", "aa") == "aaaa");  // a replacement is not searched again
  CHECK(replace_all("abc", "", "x") == "abc");
  CHECK(replace_all("", "a", "b").empty());
}
