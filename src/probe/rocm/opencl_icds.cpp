// Why a fact: an OpenCL program does not choose its runtime. The ICD loader
// (libOpenCL.so.1) opens every library that a file in /etc/OpenCL/vendors
// names (Khronos' cl_khr_icd; ocl-icd does the same), so which runtimes are
// registered decides what an OpenCL program sees and what runs inside it:
// no AMD runtime (amdocl64) means no AMD platform, and Mesa's (Clover,
// rusticl) beside it runs Mesa's code in every OpenCL program.
// A loader pointed elsewhere by OCL_ICD_VENDORS is not followed: the fact is
// the system's registration, which every program gets by default.
#include "probe/rocm/opencl_icds.h"
#include "probe/rocm/etc_recorded.h"

#include "base/text.h"

namespace rocmdoc {

namespace {

// Where loaders look: /etc/OpenCL/vendors (Khronos' loader and ocl-icd as
// built by most distributions); openSUSE Tumbleweed's packages install
// their .icd files under /usr/share/OpenCL/vendors instead (its Mesa.spec,
// suse_version >= 1550), for the loader it builds to read there.
constexpr const char* kVendorsDirs[] = {"/etc/OpenCL/vendors", "/usr/share/OpenCL/vendors"};

// The library an .icd file names: its first line as it stands (Khronos'
// loader passes the file to dlopen() without its one trailing newline, so
// spaces around the name make it fail there: they are kept, not trimmed
// away). Unknown, with the reason, when the file cannot tell or its first
// line is empty.
Json icd_library(ProbeContext& ctx, const std::string& file) {
  auto text = ctx.fs().read_file(file, 64 * 1024);
  if (!text) return unknown(text.error());
  if (looks_binary(*text)) return unknown(file + ": binary content, not an .icd file");
  std::string library = text->substr(0, text->find('\n'));
  if (!library.empty() && library.back() == '\r') library.pop_back();
  if (library.empty()) return unknown(file + ": its first line is empty, it names no library");
  return library;
}

}  // namespace

void probe_opencl_icds(ProbeContext& ctx, Json& section) {
  Json out = Json::array();
  bool any_dir = false;
  for (const char* dir : kVendorsDirs) {
    auto names = ctx.fs().list_dir(dir);
    if (!names) {
      if (ctx.fs().stat(dir).absent()) continue;
      section["opencl_icds"] = unknown(names.error());
      return;
    }
    any_dir = true;
    for (auto& name : *names) {  // sorted by list_dir: the facts' order is stable, whatever the loaders'
      if (!ends_with(name, ".icd")) continue;  // the loaders read only these
      std::string file = path_join(dir, name);
      out.push_back(Json{{"file", file}, {"library", icd_library(ctx, file)}});
    }
  }
  // Neither directory is no registered runtime on a machine; a recorded
  // tree that kept no /etc (etc_recorded.h) cannot tell that. A tree
  // recorded before this fact existed reads as none registered, so the
  // rules read an empty list as nothing; a non-empty one they take as the
  // whole registration (mesa-opencl-icd-crashes-opencl-program is ruled out
  // by what it lacks), which holds for every tree this probe records, as it
  // reads both directories.
  if (!any_dir && !etc_recorded(ctx)) {
    section["opencl_icds"] = unknown("neither /etc/ld.so.conf nor /etc/ld.so.conf.d: /etc was not recorded");
    return;
  }
  section["opencl_icds"] = out;
}

}  // namespace rocmdoc
