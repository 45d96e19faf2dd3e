// Values a report must not carry even when the user asked for one: those of
// environment variables whose names say they are secret (HF_TOKEN,
// AWS_SECRET_ACCESS_KEY, ...). A snapshot never stores them (it keeps only
// the variables rocmdoc reads), but a pasted log or a workload's output can
// print them, so a report masks them wherever they appear.
#pragma once

#include <map>
#include <string>
#include <vector>

namespace rocmdoc {

// The name holds TOKEN, KEY, SECRET, PASSWORD or CREDENTIAL, in any case.
bool looks_secret(const std::string& name);

class SecretMask {
 public:
  SecretMask() = default;
  // The values of the secret-looking variables among `environment`. Values
  // shorter than 6 characters are not masked by value ("1", "true" would
  // turn up everywhere); their assignments still are.
  explicit SecretMask(const std::map<std::string, std::string>& environment);

  // Every known value replaced, then the value of every assignment to a
  // secret-looking name (NAME=value, NAME: value, "NAME": "value").
  std::string apply(const std::string& text) const;
  size_t known_values() const { return values_.size(); }

 private:
  std::vector<std::string> values_;  // longest first, so no value hides part of a longer one
};

constexpr const char* kSecretStandIn = "[redacted]";

}  // namespace rocmdoc
