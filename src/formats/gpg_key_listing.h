// The keys in `gpg --show-keys --with-colons` output (gnupg doc/DETAILS):
// a "pub" record per primary key (field 2 validity, field 7 expiry) and the
// "fpr" record after it (field 10 the fingerprint). Subkeys' fpr records
// (after "sub") are not the key's identity and are skipped.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

namespace rocmdoc {

struct GpgKey {
  std::string fingerprint;  // upper-case hex
  std::string validity;     // field 2: "e" expired, "r" revoked, "i" invalid, "-" unknown...
  int64_t expires = 0;      // seconds since the epoch; 0: never
  // Expired or revoked by its own record, or past its expiry date at `now`.
  bool unusable(int64_t now) const;
};

std::vector<GpgKey> parse_gpg_colons(std::string_view text);

// Fingerprints compared without blanks and case ("CA8B B472 ..." == "ca8bb472...").
std::string normalize_fingerprint(std::string_view fingerprint);

// A v4 key fingerprint as normalize_fingerprint() writes it: 40 upper-case hex digits.
bool is_fingerprint(std::string_view normalized);

}  // namespace rocmdoc
