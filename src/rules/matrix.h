// The compatibility matrix (rules/matrix/*.yaml): ROCm releases, GPUs,
// PyTorch wheels and HSA overrides, as data with sources, an as-of date and
// confidence. Conditions query it through functions (add_functions), so
// rules stay declarative.
//
// Loaded strictly into the records below (docs/rules.md, "The matrix"): an
// unknown key, a value of the wrong type or a missing required field is a
// load error at file:line:column. Fields the data may leave out or null are
// optional here, and absent means "not known" to every query.
//
// An empty list in the matrix means "not known", never "unsupported": the
// queries answer unknown ("the matrix has no GPU list for ROCm 7.2.4") there.
#pragma once

#include <algorithm>
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "rules/expression.h"
#include "rules/library_package.h"
#include "rules/rule_loader.h"
#include "formats/yaml_tree.h"

namespace rocmdoc {

// Text is viewed in the loaded files, which the Matrix keeps.
using MatrixText = std::string_view;
using MatrixTexts = std::vector<std::string_view>;

struct MatrixKernel {
  MatrixText series;                     // "6.8": version_in_series
  MatrixText kind;                       // ga, hwe, uek, unspecified
  std::optional<MatrixText> version;     // the full version, where AMD gives one
  // The GPUs AMD lists the kernel for (instinct, radeon, apu): 10.1.0 lists
  // Ubuntu 24.04's GA 6.8 for Instinct only and its HWE 7.0 for Radeon and
  // Ryzen. Empty: every GPU.
  MatrixTexts families;
  bool for_family(std::string_view family) const {
    return family.empty() || families.empty() || std::find(families.begin(), families.end(), family) != families.end();
  }
};

struct GpuDevice;

struct MatrixDistro {
  MatrixText id;                         // os-release ID
  MatrixText version;                    // os-release VERSION_ID
  MatrixTexts point_versions;            // "24.04.2"
  std::vector<MatrixKernel> kernels;     // empty: not known
  // The GPUs AMD lists the distribution for in this release, where its
  // tables limit it (`limited_to`: "Rocky Linux 9 is supported only on
  // Instinct MI300X and MI300A"): GPU families and gfx targets, each a
  // condition a GPU must meet. Both empty: every GPU the release lists.
  MatrixTexts limited_families;
  MatrixTexts limited_gfx;
  // Narrower than a target: AMD's product names ("Instinct MI300X"), where
  // the row lists some products of a target and not others (Rocky Linux 9:
  // the MI300X and MI300A, not the MI325X, all gfx942). A GPU is left out
  // only where the matrix knows its device's products and none is listed;
  // a device it does not know, or one whose id several products share with
  // some listed and some not, counts as listed (the target decides).
  MatrixTexts limited_products;
  // Products the row leaves out of its families and targets (Ubuntu 22.04
  // in 10.x: every Instinct GPU but the MI350P): a GPU is left out only
  // where the matrix knows its device's products and all are among them.
  MatrixTexts excepted_products;
  // "distro 24.04 point 24.04.2" matches a machine's VERSION_ID "24.04" too,
  // and a row of a major version only ("ol 9", "rocky 9": AMD's "Oracle
  // Linux 9") matches every minor release of it ("9.6").
  bool matches(std::string_view distro, std::string_view version_id) const;
  // Why this row does not list a GPU of this family (instinct, radeon, apu)
  // and gfx target: its limit ("only for gfx942"), or kernel rows for other
  // families only ("with no kernel for apu GPUs"); "" where it lists it. An
  // empty family or gfx is not known and narrows nothing, as an empty kernel
  // list is not known and leaves nobody out.
  // device: the GPU's entry in the matrix (gpus.yaml), for a product limit;
  // nullptr: not known, and no product limit leaves it out.
  std::string leaves_out(std::string_view family, std::string_view gfx, const GpuDevice* device = nullptr) const;
  std::string limit_leaves_out(std::string_view family, std::string_view gfx,
                               const GpuDevice* device = nullptr) const;  // the limit's part only
};

// A distribution as rocmdoc names it and advises on it (distributions.yaml):
// its display name, the os-release ID whose AMD packages fit it where AMD
// does not list it itself (CentOS Stream and AlmaLinux: rhel), and the
// distribution's own ROCm packages, if it has them.
//
// Its own packages per version: the ROCm release they are and the GPU
// targets their libraries are built for (the distribution's choice, not
// AMD's list). An empty target list is "not known".
struct OwnPackages {
  MatrixText version;                    // os-release VERSION_ID ("13"); "" for a rolling release
  MatrixText release;                    // the ROCm release the packages are ("5.7.1")
  MatrixTexts gpu_targets;               // gfx targets of its libraries (rocBLAS's kernels); empty: not known
  MatrixText targets_from;               // what the list was read from ("librocblas0 5.5.1+dfsg-7's files")
  MatrixText confidence;
  std::optional<MatrixText> unconfirmed;
  MatrixTexts sources;
};

struct MatrixDistribution {
  MatrixText id;                         // os-release ID
  MatrixText name;                       // "RHEL", "Ubuntu"
  std::optional<MatrixText> follows;     // os-release ID of the listed distribution it is built from
  std::optional<MatrixText> own_rocm;    // how to install the distribution's own ROCm
  std::vector<OwnPackages> own_packages; // per version, where rocmdoc knows them
  // Its versions' codenames ("24.04" noble), by which a distribution built
  // on it names its base (os-release's UBUNTU_CODENAME in Linux Mint 22).
  std::vector<std::pair<MatrixText, MatrixText>> codenames;
  MatrixText confidence;
  std::optional<MatrixText> unconfirmed;
  const OwnPackages* own_packages_for(std::string_view version_id) const;  // nullptr when not known
};

struct ReleaseGpu {
  MatrixText gfx;
  std::optional<MatrixText> product, family;  // null: a gfx-level fact, no product list
  MatrixText support;                         // supported, deprecated, unsupported
  // Set ("radeon") where the support comes from AMD's "ROCm on Radeon"
  // documents, not the release's own table; then with its own sources.
  std::optional<MatrixText> track;
  std::optional<MatrixText> unconfirmed;      // what of that entry no primary source states
  MatrixTexts sources;
};

// What AMD's "ROCm on Radeon" documents published for a release beside (or,
// for the track's own releases such as 6.1.3, instead of) the release's
// table: where the track's pages for it are and its WSL support. Its own
// provenance, since AMD staff comments and page copies are its sources.
struct RadeonTrackWsl {
  MatrixText status;                     // beta, supported, none
  MatrixTexts gpus;                      // products AMD named for WSL; empty: none named
};

struct RadeonTrack {
  std::optional<MatrixText> docs;        // the track's pages for this release; null: not known
  std::optional<MatrixText> driver;      // "Radeon Software for Linux 25.10.1", where AMD names it
  std::optional<RadeonTrackWsl> wsl;     // null: not known
  MatrixText confidence;
  std::optional<MatrixText> unconfirmed;
  MatrixTexts sources;
};

struct Release {
  MatrixText version;                    // "6.4.1"
  std::optional<MatrixText> date;        // null where no source dates it
  MatrixText line;                       // production, preview, core_sdk
  MatrixText confidence;                 // high, medium, low
  std::optional<MatrixText> unconfirmed; // what exactly is not confirmed
  MatrixTexts sources;
  MatrixTexts architectures;             // empty: not captured
  std::vector<MatrixDistro> distros;     // empty: not known
  std::vector<ReleaseGpu> gpus;          // empty: not known
  std::optional<RadeonTrack> radeon_track;  // null: the track published nothing rocmdoc knows for it
  // The rows for a distribution's version, in the matrix's order; empty
  // where none matches. One version can have several: one per point release
  // (Ubuntu 22.04.4 with the 6.5 HWE kernel, 22.04.5 with 6.8) or one per
  // document (7.1.1: the Radeon pages' row beside the compatibility
  // table's). What any of them lists is listed: a machine's os-release
  // VERSION_ID does not name its point release.
  std::vector<const MatrixDistro*> distro_rows(std::string_view distro, std::string_view version_id) const;
};

struct GfxTarget {
  MatrixText gfx;                        // "gfx90a"
  std::int64_t kfd_target_version = 0;   // sysfs gfx_target_version, 90010
  MatrixText architecture;               // "CDNA2"
  bool apu = false;
  MatrixTexts products;
  // The graphics-core IP versions amdgpu reads from such a GPU (gc_ip:
  // "10.3.6 / 10.3.7"), where the version alone gives this target; and
  // those that give it only with a condition the version does not show
  // ("9.4.3 (rev_id 0, APU)": GC 9.4.3 is gfx940, gfx941 or gfx942).
  MatrixTexts gc_versions;
  MatrixTexts gc_versions_conditional;
};

struct GpuDevice {
  MatrixText device_id;                  // "0x744c" (vendor 0x1002)
  MatrixText asic;
  std::optional<MatrixText> gfx;         // null where not known
  // Where AMD's sources name different targets for the device (Krackan2,
  // 0x1902: gfx1152 by AMD's ROCm table, gfx1153 by the kernel's APU table
  // and TheRock): each of them, and gfx stays null. Empty: not disputed.
  MatrixTexts gfx_disputed;
  MatrixTexts names;                     // marketing names; may be empty
  std::optional<MatrixText> pci_ids_name; // pci.ids' name, for a machine whose pci.ids is older
  bool apu = false;
};

struct Wheel {
  MatrixText torch;                      // "2.5.1"
  MatrixText rocm;                       // the index's variant, "6.2"
  MatrixText channel;                    // release, test, nightly
  MatrixText index_url;
  std::optional<MatrixTexts> python;     // null: not read
  std::optional<MatrixTexts> gfx;        // null: not read
  // high, medium or low: a low list (inferred, not read at the release's
  // branch) shows where a GPU is, but its silence is no proof of absence.
  MatrixText gfx_confidence;
  MatrixTexts gfx_absent;                // targets known to be missing
  std::optional<MatrixText> unconfirmed;
};

// PyTorch wheels AMD built for the Radeon track on repo.radeon.com
// (pytorch.yaml `amd_radeon_repo`), per ROCm release.
struct RadeonWheel {
  MatrixText rocm;                       // "6.1.3": the rocm-rel-<rocm> folder
  std::optional<MatrixText> torch;       // null: not seen
  MatrixText find_links;
  std::optional<MatrixTexts> python;     // null: not seen
  MatrixText confidence;
  std::optional<MatrixText> unconfirmed;
  MatrixTexts sources;
};

struct Override {
  MatrixText gfx;                        // the real target
  std::optional<MatrixText> value;       // HSA_OVERRIDE_GFX_VERSION; null when none applies
  std::optional<MatrixText> runs_as;
  MatrixText outcome;                    // works, works_with_caveats, fails, unknown
  MatrixText caveats;
};

// The words of a product name that tell one GPU from another, as one key:
// lower case, without the brand words ("AMD Radeon RX 6700 XT", "rx6700xt"
// and "6700 XT" are one key) and a parenthesised note.
std::string product_key(std::string_view name);

class Matrix {
 public:
  // files: the rules/matrix/*.yaml files. Errors carry file:line:column.
  static Matrix load(const std::vector<RuleFile>& files, std::vector<LoadError>& errors);

  const std::string& as_of() const { return as_of_; }
  const std::vector<Release>& releases() const { return releases_; }
  const std::vector<Wheel>& wheels() const { return wheels_; }
  const std::vector<RadeonWheel>& radeon_wheels() const { return radeon_wheels_; }
  const std::vector<GpuDevice>& devices() const { return devices_list_; }
  const std::vector<GfxTarget>& gfx_targets() const { return gfx_list_; }

  const GpuDevice* device(std::string_view device_id) const;  // case-insensitive; nullptr when not listed
  const GpuDevice* device_or_null(const std::string& device_id) const;  // as device(); nullptr for ""
  const GfxTarget* gfx_target(std::string_view gfx) const;
  // The target of a GPU whose IP discovery reports this GC version
  // ("11.0.0" -> gfx1100); nullptr when no target lists it or the version
  // alone does not decide (GC 9.4.3).
  const GfxTarget* gfx_for_gc_version(std::string_view version) const;
  const Release* find_release(std::string_view version) const;  // exact version ("6.4.1")
  // What a user's --rocm names: the exact release, else the newest point
  // release of a series ("10.1" is 10.1.0, "7.2" 7.2.4, as AMD names its
  // lines); nullopt when the matrix has neither, and for a bare major ("10").
  std::optional<std::string> resolve_release(const std::string& wanted) const;
  // A GPU's product name as people write it ("RX 6700XT", "Radeon 780M",
  // "MI300X") -> its gfx target, from the devices' marketing names and the
  // targets' product lists; nullopt when no name matches, or names of
  // different targets do.
  std::optional<std::string> gfx_for_product_name(std::string_view name) const;
  const MatrixDistribution* distribution(std::string_view id) const;  // nullptr when not described
  // "Rocky Linux" for "rocky"; the id itself where the matrix does not
  // describe it. Check's report and install's plan name distributions so.
  std::string distribution_name(std::string_view id) const;
  const std::vector<MatrixDistribution>& distributions() const { return distributions_; }
  // The release as JSON (version, date, line, confidence, unconfirmed,
  // sources, distros as "id version"), or null when not listed.
  Json release(const std::string& version) const;
  // "supported", "deprecated", "unsupported", "not_listed", or unknown.
  Value gpu_support(const std::string& version, const std::string& gfx) const;
  // gpu_support says "supported" or "deprecated": the release has code for gfx.
  bool has_gpu(const std::string& version, const std::string& gfx) const;
  // Where the release supports gfx only through a track ("ROCm on Radeon"):
  // that entry (the first supported one), else nullptr, also when the
  // release's own list names gfx as supported.
  const ReleaseGpu* gpu_track(const std::string& version, const std::string& gfx) const;
  // The Radeon track's wheels for exactly this release (rocm-rel-6.1.3), or nullptr.
  const RadeonWheel* radeon_wheel(std::string_view version) const;
  Value distro_support(const std::string& version, const std::string& distro, const std::string& version_id) const;
  // True when the kernel is in a series any of the release's rows for that
  // distro version lists (Release::distro_rows). family: the GPU's
  // (instinct, radeon, apu), or "" for every kernel row; gfx: its target, or
  // "". Unknown, with the reason, where every row with kernels is limited to
  // other GPUs (MatrixDistro::limit_leaves_out), or where a row for this GPU
  // lists no kernels and no other row lists this one.
  Value kernel_support(const std::string& version, const std::string& distro, const std::string& version_id,
                       const std::string& kernel_release, const std::string& family = "",
                       const std::string& gfx = "", const std::string& device_id = "") const;
  // The kernels the release lists for the distribution version and this GPU
  // (the rows kernel_support judges by), each with the distribution's
  // package that installs it where a primary source names one. Series newer
  // than the running kernel's come first, in the matrix's order: GRUB boots
  // the newest kernel installed, so on Ubuntu 22.04 running HWE 6.5, GA
  // 5.15's linux-generic changes nothing and HWE 6.8's package is the fix;
  // the older ones follow, newest first. Check's
  // target.kernels and install's plan note both name them from here.
  struct ListedKernels {
    std::vector<std::string> labels;    // "6.8 (GA)", "7.0 (HWE)"
    std::vector<std::string> series;    // "6.8", "7.0": what version_in_series matches
    std::vector<std::string> packages;  // "linux-generic-hwe-24.04"; empty: none known,
    std::string packages_why;           // and why
    // The first of packages whose series is newer than the running kernel's,
    // the one GRUB would boot once installed, and that series ("6.8"); empty
    // where none is (the running kernel has no series, or every package is of
    // an older or the same series: one newer may have no package, a row
    // without GA/HWE kind).
    std::string newer_package;
    std::string newer_package_series;
    std::string unknown_why;            // not empty: the matrix cannot name them, and why
    // The running kernel's series is newer than every listed one (a mainline
    // 6.15 where 6.8 and 6.11 are listed): installing a listed kernel then
    // does not change what GRUB boots. Unknown where the running kernel has
    // no series or no kernel is listed.
    Value running_newer = Value::unknown("no kernel is listed");
  };
  ListedKernels listed_kernels(const std::string& version, const std::string& distro, const std::string& version_id,
                               const std::string& running_kernel, const std::string& family = "",
                               const std::string& gfx = "", const std::string& device_id = "") const;
  // Whether the release lists the distribution for a GPU of this family
  // (instinct, radeon, apu) and gfx target ("" for either: not known):
  // false where it does not list the distribution, or every row of it is
  // limited to other GPUs (limited_to: Rocky Linux 9 for gfx942 only) or has
  // kernels for other families only (Ryzen APUs on Ubuntu 22.04 in 10.x);
  // unknown where the matrix has no distribution list for the release.
  // Check's newest release for a GPU and install's choice of a release
  // both ask this. device_id: the GPU's PCI device id ("0x74a5"), for a row
  // limited to some products of a target (MatrixDistro::limited_products);
  // "": not known.
  Value lists_gpu(const std::string& version, const std::string& distro, const std::string& version_id,
                  const std::string& family, const std::string& gfx, const std::string& device_id = "") const;
  // Why the release's rows for the distribution leave this GPU out, as a
  // sentence from the first row ("ROCm 7.2.4 lists rocky 9 only for
  // gfx942"), or "" where some row does not (or the release or the
  // distribution is not known).
  std::string gpu_left_out(const std::string& version, const std::string& distro, const std::string& version_id,
                           const std::string& family, const std::string& gfx, const std::string& device_id = "") const;
  // The releases of one line (production, core_sdk) whose GPU list names
  // gfx as supported/deprecated, oldest first.
  Json releases_for_gfx(const std::string& gfx, std::string_view line = "production") const;
  // The newest production release listing gfx (supported or deprecated) and
  // the distribution for that GPU (lists_gpu); where no production
  // release does, the newest Core SDK release that does; null when none does.
  // family: gpu_family()'s, or "" where not known.
  Json newest_release_for(const std::string& gfx, const std::string& distro, const std::string& version_id,
                          const std::string& family = "", const std::string& device_id = "") const;
  // Where newest_release_for finds nothing: the newest production or Core
  // SDK release that lists gfx and the distribution, but the distribution
  // for other GPUs only, as gpu_left_out says it ("ROCm 10.1.0 lists rocky
  // 9.6 only for gfx942"); "" where there is none.
  std::string newest_left_out(const std::string& gfx, const std::string& distro, const std::string& version_id,
                              const std::string& family, const std::string& device_id = "") const;
  // The entry with the best reported outcome for gfx, or nullptr.
  const Override* hsa_override(std::string_view gfx) const;
  // The reported outcome of one value on gfx, or null when nobody reported it.
  Json hsa_override_reported(const std::string& gfx, const std::string& value) const;
  // Whether the ROCm wheel of torch_version ("2.5.1+rocm6.2") was built for
  // gfx: from the wheel's gfx list, or its list of known-absent targets;
  // unknown where the matrix has neither, and where only a list of low
  // confidence leaves gfx out (gfx_absent still decides there).
  Value torch_wheel_has_gfx(const std::string& torch_version, const std::string& gfx) const;
  // The same of one wheel entry: check's torch_wheel_has_gfx, the target's
  // torch index and install's PyTorch step decide by it alike.
  Value wheel_has_gfx(const Wheel& w, const std::string& gfx) const;
  // The ROCm wheel torch_version ("2.5.1+rocm6.2") is, or null where the
  // matrix does not list it (torch_wheel_has_gfx, torch_index()).
  const Wheel* rocm_wheel(const std::string& torch_version) const;
  // The package that ships a shared library on this distribution
  // (libraries.yaml; an ID it does not know is looked up as the one it
  // follows in distributions.yaml), or nullopt where the map has none.
  std::optional<std::string> library_package(std::string_view library, std::string_view distro,
                                             std::string_view version_id) const;
  const std::vector<LibraryPackage>& libraries() const { return libraries_; }

  // The functions keep a pointer to this Matrix: it must outlive them and
  // not move (Knowledge keeps it on the heap).
  void add_functions(std::map<std::string, Function>& functions) const;

 private:
  friend class MatrixReader;
  // The parsed matrix files read at run time (--rules); the records' text
  // points into them. Built-in files' text is static data (MatrixReader).
  std::vector<std::shared_ptr<const YamlTree>> trees_;
  std::string as_of_;
  std::vector<Release> releases_;
  std::vector<GpuDevice> devices_list_;
  std::vector<GfxTarget> gfx_list_;
  std::vector<Override> overrides_list_;  // every entry, in file order
  std::vector<Wheel> wheels_;
  std::vector<RadeonWheel> radeon_wheels_;
  std::vector<MatrixDistribution> distributions_;
  std::vector<LibraryPackage> libraries_;
  std::map<std::string, size_t, std::less<>> devices_;      // by lower-case PCI device id
  std::map<std::string_view, size_t, std::less<>> gfx_targets_;
  std::map<std::string_view, size_t, std::less<>> overrides_;  // best reported entry per gfx
  // The product names rows are limited to (limited_to.products and
  // except_products) and where each is written, for check_product_names.
  std::vector<std::pair<std::string, SourceLocation>> product_names_;
  void index();
  // A product name no device of gpus.yaml has (a typo, "Instinct MI35OP")
  // would limit nothing, silently: each is an error at its line.
  void check_product_names(std::vector<LoadError>& errors) const;
};

}  // namespace rocmdoc
