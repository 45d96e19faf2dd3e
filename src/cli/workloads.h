// check --deep: what each workload in the facts' `deep` section did, and for
// each failure the cause explain names when its text is scanned and ranked
// on the same facts. Here in cli, above both explain and output, because
// check and explain are siblings below it.
#pragma once

#include "output/text_report.h"
#include "rules/knowledge.h"

namespace rocmdoc {

// facts: check's (with the derived sections). A deep section that is not
// an object is "not run" with its reason.
WorkloadReport judge_workloads(const Json& facts, const Knowledge& knowledge);

}  // namespace rocmdoc
