// `rocmdoc fleet merge` as text in the style of `flutter doctor` (one line
// per kind of node, then each problem with its nodes) and as JSON
// (docs/fleet.md). Node lists are printed as ranges, gpu[001-040].
#pragma once

#include <string>

#include "base/fact.h"
#include "fleet/fleet_merge.h"

namespace rocmdoc {

std::string render_fleet_text(const FleetSummary& summary, bool color);

constexpr int kFleetJsonSchema = 1;
Json render_fleet_json(const FleetSummary& summary);

}  // namespace rocmdoc
