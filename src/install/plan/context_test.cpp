// The planner's Context: the decisions the step builders read back.
#include "catch.h"
#include "install/plan/planner_internal.h"

using namespace rocmdoc;
using namespace rocmdoc::plan;

TEST_CASE("behind_kernel_reboot is whether a listed kernel is installed and booted before the driver",
          "[install-plan-context]") {
  InstallRecipes recipes;
  std::vector<LoadError> errors;
  Matrix matrix = Matrix::load({}, errors);
  InstallOptions options;
  Json facts = Json::object();
  Context ctx(recipes, matrix, options, facts);
  ctx.kernel = "6.5.0-41-generic";

  // No listed kernel chosen: the driver is built for the running kernel.
  CHECK_FALSE(ctx.behind_kernel_reboot());
  CHECK(ctx.driver_kernel() == "6.5.0-41-generic");

  ctx.listed_kernel_package = "linux-generic-hwe-22.04";
  CHECK(ctx.behind_kernel_reboot());
  CHECK(ctx.driver_kernel() == "the kernel booted at kernel-reboot");
}
