#include "formats/gpg_key_listing.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "base/text.h"

namespace rocmdoc {

namespace {

std::vector<std::string_view> colon_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  size_t start = 0;
  while (true) {
    size_t colon = line.find(':', start);
    fields.push_back(line.substr(start, colon == std::string_view::npos ? colon : colon - start));
    if (colon == std::string_view::npos) return fields;
    start = colon + 1;
  }
}

// Expiry is seconds since the epoch, or (--fixed-list-mode off, old gpg)
// an ISO date; a date we cannot read counts as no expiry known: 0.
int64_t parse_expiry(std::string_view field) {
  int64_t value = 0;
  auto [end, ec] = std::from_chars(field.data(), field.data() + field.size(), value);
  if (ec != std::errc() || end != field.data() + field.size()) return 0;
  return value;
}

}  // namespace

bool GpgKey::unusable(int64_t now) const {
  if (validity == "e" || validity == "r" || validity == "i" || validity == "d") return true;
  return expires > 0 && expires <= now;
}

std::string normalize_fingerprint(std::string_view fingerprint) {
  std::string out;
  for (char c : fingerprint)
    if (!std::isspace(static_cast<unsigned char>(c))) out += static_cast<char>(std::toupper(static_cast<unsigned char>(c)));
  return out;
}

bool is_fingerprint(std::string_view f) {
  return f.size() == 40 && std::all_of(f.begin(), f.end(), [](char c) { return (c >= '0' && c <= '9') || (c >= 'A' && c <= 'F'); });
}

std::vector<GpgKey> parse_gpg_colons(std::string_view text) {
  std::vector<GpgKey> keys;
  bool in_primary = false;  // the last pub/sec/sub record was a primary key
  bool primary_has_fpr = false;
  for (std::string_view line : split_lines(text)) {
    auto fields = colon_fields(line);
    std::string_view type = fields[0];
    if (type == "pub" || type == "sec") {
      GpgKey key;
      if (fields.size() > 1) key.validity = std::string(fields[1]);
      if (fields.size() > 6) key.expires = parse_expiry(fields[6]);
      keys.push_back(std::move(key));
      in_primary = true;
      primary_has_fpr = false;
    } else if (type == "sub" || type == "ssb") {
      in_primary = false;
    } else if (type == "fpr" && in_primary && !primary_has_fpr && fields.size() > 9) {
      keys.back().fingerprint = normalize_fingerprint(fields[9]);
      primary_has_fpr = true;
    }
  }
  std::erase_if(keys, [](const GpgKey& k) { return k.fingerprint.empty(); });
  return keys;
}

}  // namespace rocmdoc
