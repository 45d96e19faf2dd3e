#include "formats/rpm_header.h"

namespace rocmdoc {

namespace {

// rpm's tag types (lib/rpmtag.h, rpmTagType).
constexpr std::uint32_t kTypeInt32 = 4;
constexpr std::uint32_t kTypeString = 6;
constexpr std::uint32_t kTypeStringArray = 8;
constexpr std::uint32_t kTypeI18nString = 9;

std::uint32_t be32(std::string_view s, size_t at) {
  auto b = [&](size_t i) { return static_cast<std::uint32_t>(static_cast<unsigned char>(s[at + i])); };
  return (b(0) << 24) | (b(1) << 16) | (b(2) << 8) | b(3);
}

struct Entry {
  std::uint32_t tag, type, offset, count;
};

// A string value: NUL-terminated inside the data. For the array types the
// first element, which for an I18N string is the untranslated "C" text.
Result<std::string> string_value(std::string_view data, const Entry& e) {
  if (e.type != kTypeString && e.type != kTypeStringArray && e.type != kTypeI18nString)
    return Result<std::string>::fail("tag " + std::to_string(e.tag) + " has type " + std::to_string(e.type) +
                                     ", not a string");
  if (e.offset >= data.size())
    return Result<std::string>::fail("tag " + std::to_string(e.tag) + ": offset " + std::to_string(e.offset) +
                                     " is past the data (" + std::to_string(data.size()) + " bytes)");
  auto end = data.find('\0', e.offset);
  if (end == std::string_view::npos)
    return Result<std::string>::fail("tag " + std::to_string(e.tag) + ": string at offset " +
                                     std::to_string(e.offset) + " has no end inside the data");
  return Result<std::string>::ok(std::string(data.substr(e.offset, end - e.offset)));
}

Result<std::uint32_t> int32_value(std::string_view data, const Entry& e) {
  if (e.type != kTypeInt32 || e.count < 1)
    return Result<std::uint32_t>::fail("tag " + std::to_string(e.tag) + " has type " + std::to_string(e.type) +
                                       ", not an int32");
  if (e.offset > data.size() || data.size() - e.offset < 4)
    return Result<std::uint32_t>::fail("tag " + std::to_string(e.tag) + ": offset " + std::to_string(e.offset) +
                                       " is past the data (" + std::to_string(data.size()) + " bytes)");
  return Result<std::uint32_t>::ok(be32(data, e.offset));
}

}  // namespace

std::string RpmHeader::evr() const {
  return (epoch ? std::to_string(*epoch) + ":" : "") + version + "-" + release;
}

Result<RpmHeader> parse_rpm_header(std::string_view blob) {
  using R = Result<RpmHeader>;
  if (blob.size() < 8) return R::fail("header of " + std::to_string(blob.size()) + " bytes, shorter than its 8-byte start");
  std::uint32_t il = be32(blob, 0), dl = be32(blob, 4);
  if (il < 1 || il > kRpmHeaderMaxEntries) return R::fail("header has " + std::to_string(il) + " entries");
  if (dl > kRpmHeaderMaxData) return R::fail("header has " + std::to_string(dl) + " bytes of data");
  // 64-bit arithmetic: il * 16 + dl cannot overflow with the limits above.
  std::uint64_t need = 8 + std::uint64_t(il) * 16 + dl;
  if (need > blob.size())
    return R::fail("header needs " + std::to_string(need) + " bytes (" + std::to_string(il) + " entries, " +
                   std::to_string(dl) + " bytes of data) but the blob has " + std::to_string(blob.size()));
  std::string_view data = blob.substr(8 + size_t(il) * 16, dl);
  RpmHeader h;
  for (std::uint32_t i = 0; i < il; ++i) {
    size_t at = 8 + size_t(i) * 16;
    Entry e{be32(blob, at), be32(blob, at + 4), be32(blob, at + 8), be32(blob, at + 12)};
    auto text = [&](std::string& out) -> std::string {
      auto v = string_value(data, e);
      if (!v) return v.error();
      out = *v;
      return "";
    };
    std::string why;
    switch (static_cast<RpmTag>(e.tag)) {
      case RpmTag::name: why = text(h.name); break;
      case RpmTag::version: why = text(h.version); break;
      case RpmTag::release: why = text(h.release); break;
      case RpmTag::arch: why = text(h.arch); break;
      case RpmTag::vendor: why = text(h.vendor); break;
      case RpmTag::packager: why = text(h.packager); break;
      case RpmTag::distribution: why = text(h.distribution); break;
      case RpmTag::sourcerpm: why = text(h.sourcerpm); break;
      case RpmTag::epoch: {
        auto v = int32_value(data, e);
        if (v) h.epoch = *v;
        else why = v.error();
        break;
      }
      default: break;
    }
    if (!why.empty()) return R::fail("index entry " + std::to_string(i) + ": " + why);
  }
  for (auto [value, tag] : {std::pair{&h.name, "Name"}, {&h.version, "Version"}, {&h.release, "Release"}})
    if (value->empty()) return R::fail(std::string("header has no ") + tag);
  return R::ok(std::move(h));
}

}  // namespace rocmdoc
