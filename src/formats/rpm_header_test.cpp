#include "formats/rpm_header.h"

#include <vector>

#include "catch.h"

using namespace rocmdoc;

namespace {

// A header blob as rpm writes one: index entries, then the data store.
struct BlobBuilder {
  std::vector<std::uint32_t> entries;  // tag, type, offset, count
  std::string data;

  void str(std::uint32_t tag, const std::string& value, std::uint32_t type = 6) {
    entries.insert(entries.end(), {tag, type, std::uint32_t(data.size()), 1});
    data += value;
    data.push_back('\0');
  }
  void int32(std::uint32_t tag, std::uint32_t value) {
    while (data.size() % 4) data.push_back('\0');  // rpm aligns int32 values
    entries.insert(entries.end(), {tag, 4, std::uint32_t(data.size()), 1});
    put(data, value);
  }
  static void put(std::string& out, std::uint32_t v) {
    for (int shift : {24, 16, 8, 0}) out.push_back(char((v >> shift) & 0xff));
  }
  std::string blob() const {
    std::string out;
    put(out, std::uint32_t(entries.size() / 4));
    put(out, std::uint32_t(data.size()));
    for (auto v : entries) put(out, v);
    return out + data;
  }
};

BlobBuilder fedora_rocm_runtime() {
  BlobBuilder b;
  b.str(1000, "rocm-runtime");
  b.str(1001, "6.4.2");
  b.str(1002, "1.fc43");
  b.str(1004, "ROCm Runtime Library", 9);
  b.str(1011, "Fedora Project");
  b.str(1015, "Fedora Project");
  b.str(1022, "x86_64");
  b.str(1044, "rocm-runtime-6.4.2-1.fc43.src.rpm");
  return b;
}

}  // namespace

TEST_CASE("rpm header: the identifying tags of a package", "[rpm]") {
  auto h = parse_rpm_header(fedora_rocm_runtime().blob());
  REQUIRE(h.ok());
  CHECK(h->name == "rocm-runtime");
  CHECK(h->version == "6.4.2");
  CHECK(h->release == "1.fc43");
  CHECK(h->arch == "x86_64");
  CHECK(h->vendor == "Fedora Project");
  CHECK(h->sourcerpm == "rocm-runtime-6.4.2-1.fc43.src.rpm");
  CHECK_FALSE(h->epoch.has_value());
  CHECK(h->evr() == "6.4.2-1.fc43");
}

TEST_CASE("rpm header: an epoch goes in front of the version", "[rpm]") {
  BlobBuilder b = fedora_rocm_runtime();
  b.int32(1003, 1);
  auto h = parse_rpm_header(b.blob());
  REQUIRE(h.ok());
  CHECK(h->epoch == 1u);
  CHECK(h->evr() == "1:6.4.2-1.fc43");
}

TEST_CASE("rpm header: truncated or hostile blobs are errors, never reads outside", "[rpm]") {
  std::string good = fedora_rocm_runtime().blob();
  CHECK(parse_rpm_header("").error() == "header of 0 bytes, shorter than its 8-byte start");
  // Every prefix of a good blob is refused, none read past its end.
  for (size_t n = 0; n < good.size(); ++n) CHECK_FALSE(parse_rpm_header(good.substr(0, n)).ok());

  std::string huge = good;
  huge[0] = '\x7f';  // il = 0x7f00000N entries
  CHECK(parse_rpm_header(huge).error().find("entries") != std::string::npos);

  BlobBuilder b = fedora_rocm_runtime();
  b.entries[2] = 100000;  // Name's offset past the data
  CHECK(parse_rpm_header(b.blob()).error() == "index entry 0: tag 1000: offset 100000 is past the data (118 bytes)");

  BlobBuilder unterminated;
  unterminated.str(1000, "rocm");
  unterminated.data.pop_back();  // no NUL at the end
  CHECK(parse_rpm_header(unterminated.blob()).error().find("has no end inside the data") != std::string::npos);

  BlobBuilder wrong_type;
  wrong_type.int32(1000, 7);
  CHECK(parse_rpm_header(wrong_type.blob()).error() == "index entry 0: tag 1000 has type 4, not a string");

  BlobBuilder no_release;
  no_release.str(1000, "rocm-runtime");
  no_release.str(1001, "6.4.2");
  CHECK(parse_rpm_header(no_release.blob()).error() == "header has no Release");
}
