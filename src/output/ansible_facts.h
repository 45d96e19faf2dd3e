// `rocmdoc facts --format ansible`: a compact JSON object for Ansible's
// local facts (packaging/ansible/rocmdoc.fact in /etc/ansible/facts.d/, read
// as ansible_local.rocmdoc): what a playbook's `when:` needs, not the whole
// facts document (docs/fleet.md, Ansible).
#pragma once

#include "rules/knowledge.h"

namespace rocmdoc {

constexpr int kAnsibleFactsSchema = 1;

// schema; summary (errors, warnings, infos, not_checked, healthy: no error
// finding); findings (id, severity, title); gpus (name, gfx, address); rocm
// (installed, target); torch (version, build, hip). An unknown fact is null.
Json render_ansible_facts(const CheckReport& report);

}  // namespace rocmdoc
