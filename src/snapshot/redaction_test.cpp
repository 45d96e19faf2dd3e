#include "snapshot/redaction.h"

#include "catch.h"
#include "snapshot/secret_values.h"

using namespace rocmdoc;

TEST_CASE("words() replaces user and host names as whole tokens only", "[redaction]") {
  Redactor r({{"alex", "user"}, {"bo", "user2"}}, "gpubox-7");
  CHECK(r.words("alex@gpubox-7:~$ ls /home/alex/venv") == "user@host:~$ ls /home/user/venv");
  // Inside a word, a name is the word's, not a person's.
  CHECK(r.words("alexa amdgpubox-7 gpubox-77 bob robo") == "alexa amdgpubox-7 gpubox-77 bob robo");
  CHECK(r.words("groups: bo,render alex") == "groups: user2,render user");
  CHECK(r.words("gpubox-7.lan") == "host.lan");
  // A name that is also the distribution's id survives as a word, not in a home path.
  Redactor ubuntu({{"ubuntu", "user"}}, "");
  CHECK(ubuntu.words("ubuntu 24.04 /home/ubuntu/x ubuntu", {"ubuntu"}) == "ubuntu 24.04 /home/user/x ubuntu");
  CHECK(ubuntu.words("user ubuntu") == "user user");
  CHECK(Redactor().words("alex@gpubox-7") == "alex@gpubox-7");
}

TEST_CASE("secret-looking names and their values are masked", "[redaction]") {
  CHECK(looks_secret("HF_TOKEN"));
  CHECK(looks_secret("aws_secret_access_key"));
  CHECK(looks_secret("DB_Password"));
  CHECK(looks_secret("GOOGLE_APPLICATION_CREDENTIALS"));
  CHECK_FALSE(looks_secret("HSA_OVERRIDE_GFX_VERSION"));
  CHECK_FALSE(looks_secret("PATH"));
  SecretMask mask({{"HF_TOKEN", "hf_abcdef123456"}, {"API_KEY", "1"}, {"HOME", "/home/alex"}});
  CHECK(mask.known_values() == 1);  // "1" is too short to mask by value; HOME is no secret
  CHECK(mask.apply("using hf_abcdef123456 now") == "using [redacted] now");
  CHECK(mask.apply("HF_TOKEN=hf_abcdef123456 python x.py") == "HF_TOKEN=[redacted] python x.py");
  CHECK(mask.apply("export OPENAI_API_KEY=sk-live-999 && run") == "export OPENAI_API_KEY=[redacted] && run");
  CHECK(mask.apply("{\"GITHUB_TOKEN\": \"ghp_zzz\", \"x\": 1}") == "{\"GITHUB_TOKEN\": \"[redacted]\", \"x\": 1}");
  CHECK(mask.apply("password: hunter2\n") == "password: [redacted]\n");
  CHECK(mask.apply("HOME=/home/alex API_KEY=1") == "HOME=/home/alex API_KEY=[redacted]");
  CHECK(mask.apply("a TOKEN b, KEYS are fine") == "a TOKEN b, KEYS are fine");
}
