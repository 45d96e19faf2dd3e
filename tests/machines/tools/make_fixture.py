#!/usr/bin/env python3
"""Builds the synthetic fixture machines under tests/machines/ from compact specs.

A developer tool only: the build and the tests never run it. Its output (each
machine's root/ tree, sidecar and expect.json) is committed beside it. Run it
from anywhere after changing a spec:

    python3 tests/machines/tools/make_fixture.py            # every machine
    python3 tests/machines/tools/make_fixture.py NAME ...   # just these

Each machine's root/ is deleted and written again, and its expect.json rewritten;
check.json is not touched. Only the machines in BUILDERS are made here:
debian12-vm-distro-rocm is a real capture (shared/fixtures/capture-machine.sh,
with its cmd/ outputs), not synthetic, and is never deleted or rewritten; a
name that is not in BUILDERS stops the run before anything is deleted.

Regenerating every machine must leave `git status` empty: a file added to a
machine by hand belongs in its spec, or the next regeneration deletes it.

The formats follow the kernel and the packages exactly (see the comment
above each writer): sysfs attributes end in a newline, links are real
symlinks with the relative targets the kernel itself would show, and binary
files whose contents a probe reads (PCI config space, efivars, gpu_metrics,
rpm headers) are packed field by field with struct; stubs nothing reads hold
a magic number at most. Files that no probe reads (KFD caches/, most of
/proc) are left out to keep the machines small.
"""
import json
import os
import shutil
import sqlite3
import struct
import sys

HERE = os.path.dirname(os.path.abspath(__file__))
MACHINES = os.path.dirname(HERE)

GiB = 1 << 30
MiB = 1 << 20


# ----------------------------------------------------------------------------
# The tree being written


class Tree:
    def __init__(self, root):
        self.root = root

    def host(self, path):
        assert path.startswith("/"), path
        return self.root + path

    def write(self, path, content):
        p = self.host(path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        data = content.encode() if isinstance(content, str) else bytes(content)
        if os.path.lexists(p):
            raise SystemExit("written twice: " + path)
        with open(p, "wb") as f:
            f.write(data)

    def attr(self, path, value):
        """A sysfs attribute: one value and the newline the kernel prints."""
        self.write(path, "%s\n" % value)

    def link(self, path, target):
        p = self.host(path)
        os.makedirs(os.path.dirname(p), exist_ok=True)
        os.symlink(target, p)

    def sysfs_link(self, path, target):
        """A sysfs symlink with the relative target the kernel writes.

        kernfs climbs from the link's directory to the closest common
        ancestor of that directory and the *target's parent*, then descends:
        so renderD128/device reads ../../../0000:03:00.0, not ../.."""
        link_dir = os.path.dirname(path)
        common = os.path.commonpath([link_dir, os.path.dirname(target)])
        ups = len([p for p in link_dir[len(common):].split("/") if p])
        rest = os.path.relpath(target, common)
        self.link(path, "../" * ups + rest)


# ----------------------------------------------------------------------------
# PCI: sysfs attributes (drivers/pci/pci-sysfs.c) and binary config space

PORT_TYPE = {"endpoint": 0, "legacy": 1, "root": 4, "upstream": 5, "downstream": 6, "pcie_to_pci": 7}
SPEED = {1: "2.5 GT/s PCIe", 2: "5.0 GT/s PCIe", 3: "8.0 GT/s PCIe", 4: "16.0 GT/s PCIe", 5: "32.0 GT/s PCIe"}

# resource flags as the kernel keeps them (IORESOURCE_* | PCI_BASE_ADDRESS_* bits)
MEM64_PREF = 0x14220C
MEM32 = 0x40200
IO = 0x40101
ROM = 0x46200
WIN_IO = 0x101
WIN_MEM = 0x200
WIN_PREF = 0x102201


class Pci:
    def __init__(self, addr, vendor, device, cls, *, parent=None, rev=0x00, sub=(0, 0), driver=None,
                 pcie=None, bars=(), windows=(), bus_range=None, iommu_group=None, drm=None,
                 multifunction=False, numa=-1, boot_vga=None):
        self.addr, self.vendor, self.device, self.cls = addr, vendor, device, cls
        self.parent, self.rev, self.sub, self.driver = parent, rev, sub, driver
        self.pcie = pcie  # dict: type, max=(gen, width), cur=(gen, width), routing, c32, c64, c128, req
        self.bars = bars  # [(index, start, size, flags)], index 0-6 (6 = ROM)
        self.windows = windows  # bridges: [(start, size, flags)] for I/O, mem, prefetch
        self.bus_range = bus_range  # bridges: (secondary, subordinate)
        self.iommu_group, self.drm, self.multifunction, self.numa = iommu_group, drm, multifunction, numa
        self.boot_vga = boot_vga if boot_vga is not None else bool(drm and drm.get("boot_vga"))

    @property
    def is_bridge(self):
        return self.cls >> 8 == 0x0604


def pcie_cap(p):
    """The PCI Express capability structure (PCIe base spec 7.5.3)."""
    c = p.pcie
    b = bytearray(0x3C)
    slot = c["type"] in ("root", "downstream")
    b[0], b[1] = 0x10, 0xA0  # cap id, next: MSI
    struct.pack_into("<H", b, 0x02, 0x0002 | PORT_TYPE[c["type"]] << 4 | (0x100 if slot else 0))
    struct.pack_into("<I", b, 0x04, 0x00008FA2 if c["type"] in ("endpoint", "legacy") else 0x00008022)  # DevCap
    struct.pack_into("<H", b, 0x08, 0x2910)  # DevCtl: MPS 256, MRRS 512, ext tag
    max_gen, max_w = c["max"]
    cur_gen, cur_w = c["cur"]
    struct.pack_into("<I", b, 0x0C, max_gen | max_w << 4 | 0x2 << 10 | 0x00400000)  # LinkCap (ASPM L1)
    struct.pack_into("<H", b, 0x10, 0x0040)  # LinkCtl: common clock
    struct.pack_into("<H", b, 0x12, cur_gen | cur_w << 4 | (0x2000 if slot else 0x1000))  # LinkSta
    if slot:
        struct.pack_into("<I", b, 0x14, 0x00040060)  # SlotCap: physical slot 0x8
        struct.pack_into("<H", b, 0x1A, 0x0040)  # SlotSta: presence detect
    devcap2 = 0x0000001F | 1 << 11  # completion timeout ranges + disable, LTR
    devcap2 |= (1 << 6 if c.get("routing") else 0) | (1 << 7 if c.get("c32") else 0)
    devcap2 |= (1 << 8 if c.get("c64") else 0) | (1 << 9 if c.get("c128") else 0)
    struct.pack_into("<I", b, 0x24, devcap2)
    struct.pack_into("<H", b, 0x28, (1 << 6 if c.get("req") else 0) | 1 << 10)  # DevCtl2: AtomicOp req, LTR
    struct.pack_into("<I", b, 0x2C, ((1 << max_gen) - 1) << 1)  # LinkCap2: supported speeds vector
    struct.pack_into("<H", b, 0x30, max_gen)  # LinkCtl2: target speed
    return b


def config_space(p, size):
    """Header, BARs, then PM -> PCIe -> MSI capabilities; AER in extended space."""
    b = bytearray(4096)
    struct.pack_into("<HH", b, 0x00, p.vendor, p.device)
    has_caps = p.pcie is not None or p.cls >> 8 != 0x0600
    struct.pack_into("<HH", b, 0x04, 0x0407 if p.driver else 0x0000, 0x0010 if has_caps else 0x0000)
    b[0x08] = p.rev
    b[0x09], b[0x0A], b[0x0B] = p.cls & 0xFF, p.cls >> 8 & 0xFF, p.cls >> 16
    b[0x0C] = 0x10
    b[0x0E] = (0x01 if p.is_bridge else 0x00) | (0x80 if p.multifunction else 0)
    if p.is_bridge:
        bus = int(p.addr[5:7], 16)
        sec, sub = p.bus_range
        b[0x18], b[0x19], b[0x1A] = bus, sec, sub
    else:
        for index, start, size_, flags in p.bars:
            if index == 6:
                struct.pack_into("<I", b, 0x30, start | (1 if p.driver else 0))
            elif flags & 0x100:  # I/O
                struct.pack_into("<I", b, 0x10 + 4 * index, start | 0x1)
            elif flags & 0x4:  # 64-bit memory: low dword, then high
                struct.pack_into("<II", b, 0x10 + 4 * index, (start & 0xFFFFFFF0) | (flags & 0xF), start >> 32)
            else:
                struct.pack_into("<I", b, 0x10 + 4 * index, start & 0xFFFFFFF0)
        struct.pack_into("<HH", b, 0x2C, p.sub[0], p.sub[1])
        b[0x3D] = 0x01  # INTA
    if has_caps:
        b[0x34] = 0x48
        b[0x48], b[0x49] = 0x01, 0x58 if p.pcie else 0xA0  # PM
        struct.pack_into("<HH", b, 0x4A, 0x0003, 0x0008)
        if p.pcie:
            b[0x58:0x58 + 0x3C] = pcie_cap(p)
        b[0xA0], b[0xA1] = 0x05, 0x00  # MSI, end of list
        struct.pack_into("<H", b, 0xA2, 0x0080)
    if p.pcie:
        struct.pack_into("<I", b, 0x100, 0x0001 | 2 << 16)  # AER v2, end of extended list
    return bytes(b[:size])


def resource_lines(p):
    """resource: 13 lines for endpoints, 17 for bridges (PCI_BRIDGE_RESOURCES / DEVICE_COUNT_RESOURCE)."""
    rows = [(0, 0, 0)] * (17 if p.is_bridge else 13)
    for index, start, size, flags in p.bars:
        rows[index] = (start, start + size - 1, flags)
    for i, (start, size, flags) in enumerate(p.windows):
        rows[13 + i] = (start, start + size - 1, flags)
    return "".join("0x%016x 0x%016x 0x%016x\n" % r for r in rows)


def write_pci(t, devices, config_size, iommu_type=None):
    by_addr = {d.addr: d for d in devices}

    def sysfs_path(d):
        if d.parent is None:
            return "/sys/devices/pci%s/%s" % (d.addr[:7], d.addr)
        return sysfs_path(by_addr[d.parent]) + "/" + d.addr

    groups = {}
    for d in devices:
        path = sysfs_path(d)
        t.attr(path + "/vendor", "0x%04x" % d.vendor)
        t.attr(path + "/device", "0x%04x" % d.device)
        t.attr(path + "/subsystem_vendor", "0x%04x" % d.sub[0])
        t.attr(path + "/subsystem_device", "0x%04x" % d.sub[1])
        t.attr(path + "/class", "0x%06x" % d.cls)
        t.attr(path + "/revision", "0x%02x" % d.rev)
        t.attr(path + "/numa_node", d.numa)
        t.attr(path + "/enable", 1 if d.driver else 0)
        t.write(path + "/resource", resource_lines(d))
        t.write(path + "/config", config_space(d, config_size))
        if d.cls >> 8 == 0x0300:  # boot_vga is only visible on VGA-class devices
            t.attr(path + "/boot_vga", 1 if d.boot_vga else 0)
        if d.pcie:
            t.attr(path + "/current_link_speed", SPEED[d.pcie["cur"][0]])
            t.attr(path + "/current_link_width", d.pcie["cur"][1])
            t.attr(path + "/max_link_speed", SPEED[d.pcie["max"][0]])
            t.attr(path + "/max_link_width", d.pcie["max"][1])
        if d.is_bridge:
            t.attr(path + "/secondary_bus_number", d.bus_range[0])
            t.attr(path + "/subordinate_bus_number", d.bus_range[1])
        t.sysfs_link("/sys/bus/pci/devices/" + d.addr, path)
        if d.driver:
            drv = "/sys/bus/pci/drivers/" + d.driver
            t.sysfs_link(path + "/driver", drv)
            t.sysfs_link(drv + "/" + d.addr, path)
        if d.iommu_group is not None and iommu_type:
            g = "/sys/kernel/iommu_groups/%d" % d.iommu_group
            t.sysfs_link(path + "/iommu_group", g)
            t.sysfs_link(g + "/devices/" + d.addr, path)
            groups[d.iommu_group] = g
        if d.drm:
            for name in (d.drm["card"], d.drm["render"]):
                node = path + "/drm/" + name
                minor = int(name[len("renderD"):]) if name.startswith("renderD") else int(name[len("card"):])
                t.attr(node + "/dev", "226:%d" % minor)
                t.sysfs_link(node + "/device", path)
                t.sysfs_link("/sys/class/drm/" + name, node)
    for g in groups.values():
        t.attr(g + "/type", iommu_type)
    return {d.addr: sysfs_path(d) for d in devices}


# ----------------------------------------------------------------------------
# KFD topology (drivers/gpu/drm/amd/amdkfd/kfd_topology.c: node_show, mem_show)


def kfd_props(pairs):
    return "".join("%s %d\n" % kv for kv in pairs)


def cpu_node_props(cores, clk, io_links):
    z = 0
    return kfd_props([
        ("cpu_cores_count", cores), ("simd_count", 0), ("mem_banks_count", 1), ("caches_count", 0),
        ("io_links_count", io_links), ("p2p_links_count", 0), ("cpu_core_id_base", 0), ("simd_id_base", 0),
        ("max_waves_per_simd", 0), ("lds_size_in_kb", 0), ("gds_size_in_kb", 0), ("num_gws", 0),
        ("wave_front_size", 0), ("array_count", 0), ("simd_arrays_per_engine", 0), ("cu_per_simd_array", 0),
        ("simd_per_cu", 0), ("max_slots_scratch_cu", 0), ("gfx_target_version", 0), ("vendor_id", 0),
        ("device_id", 0), ("location_id", 0), ("domain", 0), ("drm_render_minor", z), ("hive_id", 0),
        ("num_sdma_engines", 0), ("num_sdma_xgmi_engines", 0), ("num_sdma_queues_per_engine", 0),
        ("num_cp_queues", 0), ("max_engine_clk_ccompute", clk)])


def gpu_node_props(g, cpu_clk):
    bus, dev, fn = int(g["pci"][5:7], 16), int(g["pci"][8:10], 16), int(g["pci"][11], 16)
    location = bus << 8 | dev << 3 | fn
    return kfd_props([
        ("cpu_cores_count", 0), ("simd_count", g["simd"]), ("mem_banks_count", 1), ("caches_count", g["caches"]),
        ("io_links_count", 1), ("p2p_links_count", g.get("p2p", 0)), ("cpu_core_id_base", 0),
        ("simd_id_base", g["simd_id_base"]), ("max_waves_per_simd", g.get("waves", 16)),
        ("lds_size_in_kb", 64), ("gds_size_in_kb", 0), ("num_gws", g.get("gws", 64)),
        ("wave_front_size", g.get("wave", 32)), ("array_count", g["arrays"]), ("simd_arrays_per_engine", 2),
        ("cu_per_simd_array", g["cu_per_array"]), ("simd_per_cu", g.get("simd_per_cu", 2)),
        ("max_slots_scratch_cu", 32), ("gfx_target_version", g["gfx"]), ("vendor_id", 0x1002),
        ("device_id", g["device"]), ("location_id", location), ("domain", int(g["pci"][:4], 16)),
        ("drm_render_minor", g["render"]), ("hive_id", g.get("hive", 0)), ("num_sdma_engines", g.get("sdma", 2)),
        ("num_sdma_xgmi_engines", g.get("xgmi_sdma", 0)), ("num_sdma_queues_per_engine", 6),
        ("num_cp_queues", 8), ("max_engine_clk_fcompute", g["clk"]), ("local_mem_size", 0),
        ("fw_version", g["fw"]), ("capability", g["capability"]), ("debug_prop", g.get("debug_prop", 1495)),
        ("sdma_fw_version", g["sdma_fw"]), ("unique_id", g["unique_id"]), ("num_xcc", g.get("xcc", 1)),
        ("max_engine_clk_ccompute", cpu_clk)])


def mem_props(heap, size, width, clk):
    return kfd_props([("heap_type", heap), ("size_in_bytes", size), ("flags", 0), ("width", width),
                      ("mem_clk_max", clk)])


def iolink_props(kind, frm, to, weight, bw):
    return kfd_props([("type", kind), ("version_major", 0), ("version_minor", 0), ("node_from", frm),
                      ("node_to", to), ("weight", weight), ("min_latency", 0), ("max_latency", 0),
                      ("min_bandwidth", 312 if bw else 0), ("max_bandwidth", bw), ("recommended_transfer_size", 0),
                      ("flags", 1)])


def write_kfd(t, cpus, gpus):
    """/sys/class/kfd/kfd -> the virtual device; topology with a CPU node per NUMA node, then the GPU nodes
    in the order amdgpu probed them."""
    base = "/sys/devices/virtual/kfd/kfd"
    t.sysfs_link("/sys/class/kfd/kfd", base)
    t.attr(base + "/dev", "235:0")
    topo = base + "/topology"
    t.attr(topo + "/generation_id", len(gpus))
    t.write(topo + "/system_properties", "platform_oem 0\nplatform_id 0\nplatform_rev 0\n")
    first_gpu = len(cpus)
    for c, cpu in enumerate(cpus):
        n = topo + "/nodes/%d" % c
        t.write(n + "/properties", cpu_node_props(cpu["cores"], cpu["clk"], len(gpus)))
        t.attr(n + "/gpu_id", 0)
        t.attr(n + "/name", "")
        t.write(n + "/mem_banks/0/properties", mem_props(0, cpu["mem"], cpu["mem_width"], cpu["mem_clk"]))
        for i in range(len(gpus)):
            t.write(n + "/io_links/%d/properties" % i, iolink_props(2, c, first_gpu + i, 20, 0))
    for i, g in enumerate(gpus):
        node = first_gpu + i
        n = topo + "/nodes/%d" % node
        t.write(n + "/properties", gpu_node_props(g, cpus[0]["clk"]))
        t.attr(n + "/gpu_id", g["gpu_id"])
        t.attr(n + "/name", g["name"])
        t.write(n + "/mem_banks/0/properties", mem_props(g["heap"], g["vram"], g["mem_width"], g["mem_clk"]))
        t.write(n + "/io_links/0/properties", iolink_props(2, node, g.get("numa", 0), 20, 0))


# ----------------------------------------------------------------------------
# amdgpu's own files in the GPU's PCI device directory (drivers/gpu/drm/amd/)

# The IP blocks' hardware ids (drivers/gpu/drm/amd/include/soc15_hw_ip.h).
HW_ID = {"GC": 11}


def ip_discovery(t, gpu_path, block, version):
    """ip_discovery/die/0/<block>/0/ (amdgpu_discovery.c: each attribute "%d\\n"). The kernel names the block
    by a symlink to its numbered hw_id directory; the fixtures keep only the named path, which is all the
    probe opens, and only the attributes it reads beside hw_id."""
    d = "%s/ip_discovery/die/0/%s/0" % (gpu_path, block)
    t.attr(d + "/hw_id", HW_ID[block])
    for part, value in zip(("major", "minor", "revision"), version):
        t.attr(d + "/" + part, value)


def pp_dpm(t, path, levels_mhz, current):
    """pp_dpm_sclk / pp_dpm_mclk (swsmu's print_clk_levels): "%d: %uMhz %s\\n", "*" on the current level and
    a blank (so a trailing space) on the others."""
    t.write(path, "".join("%d: %dMhz %s\n" % (i, mhz, "*" if i == current else "")
                          for i, mhz in enumerate(levels_mhz)))


def hwmon(t, gpu_path, index, power_cap_w, temps):
    """hwmon/hwmon<N>/ of amdgpu (Documentation/gpu/amdgpu/thermal.rst): power1_cap, _default and _max in
    microwatts; temp<i>_input and _crit in millidegrees Celsius, temp<i>_label edge, junction or mem.
    power_cap_w: (cap, default, max); temps: [(label, celsius, crit_celsius)]."""
    d = "%s/hwmon/hwmon%d" % (gpu_path, index)
    t.attr(d + "/name", "amdgpu")
    for suffix, watts in zip(("", "_default", "_max"), power_cap_w):
        t.attr(d + "/power1_cap" + suffix, watts * 1000000)
    for i, (label, celsius, crit) in enumerate(temps, 1):
        t.attr(d + "/temp%d_input" % i, celsius * 1000)
        t.attr(d + "/temp%d_crit" % i, crit * 1000)
        t.attr(d + "/temp%d_label" % i, label)


# struct gpu_metrics_v1_3 (drivers/gpu/drm/amd/include/kgd_pp_interface.h), the table of Navi 2x/3x dGPUs,
# field by field in order; every field is naturally aligned, so packing without padding ("<") gives the C
# layout (120 bytes, indep_throttle_status at 112, as src/probe/power/gpu_metrics.cpp decodes it).
GPU_METRICS_V1_3 = (
    [("structure_size", "H"), ("format_revision", "B"), ("content_revision", "B")]
    + [("temperature_" + s, "H") for s in ("edge", "hotspot", "mem", "vrgfx", "vrsoc", "vrmem")]
    + [("average_%s_activity" % s, "H") for s in ("gfx", "umc", "mm")]
    + [("average_socket_power", "H"), ("energy_accumulator", "Q"), ("system_clock_counter", "Q")]
    + [("average_%s_frequency" % c, "H") for c in ("gfxclk", "socclk", "uclk", "vclk0", "dclk0", "vclk1", "dclk1")]
    + [("current_" + c, "H") for c in ("gfxclk", "socclk", "uclk", "vclk0", "dclk0", "vclk1", "dclk1")]
    + [("throttle_status", "I"), ("current_fan_speed", "H"), ("pcie_link_width", "H"), ("pcie_link_speed", "H"),
       ("padding", "H"), ("gfx_activity_acc", "I"), ("mem_activity_acc", "I")]
    + [("temperature_hbm_%d" % i, "H") for i in range(4)]
    + [("firmware_timestamp", "Q"), ("voltage_soc", "H"), ("voltage_gfx", "H"), ("voltage_mem", "H"),
       ("padding1", "H"), ("indep_throttle_status", "Q")])


def gpu_metrics_v1_3(**values):
    """The gpu_metrics file: the table with the named fields set (temperatures in degrees Celsius, power in
    watts, clocks in MHz), the rest 0."""
    fmt = "<" + "".join(f for _, f in GPU_METRICS_V1_3)
    size = struct.calcsize(fmt)
    assert size == 120, size
    values = dict(values, structure_size=size, format_revision=1, content_revision=3)
    unknown = set(values) - {name for name, _ in GPU_METRICS_V1_3}
    assert not unknown, unknown
    return struct.pack(fmt, *(values.get(name, 0) for name, _ in GPU_METRICS_V1_3))


# ----------------------------------------------------------------------------
# /proc, /etc and friends


def cpuinfo(model_name, family, model, stepping, microcode, cores, threads, mhz, cache_kb, flags, bugs, bogomips,
            tlb, addr_sizes, pm, sockets=1):
    out = []
    per_socket = threads // sockets
    apic = lambda socket, core, thread: socket * 128 + core * 2 + thread
    for cpu in range(threads):
        socket = cpu // per_socket
        local = cpu % per_socket
        core = local % cores
        out.append(
            "processor\t: %d\nvendor_id\t: AuthenticAMD\ncpu family\t: %d\nmodel\t\t: %d\nmodel name\t: %s\n"
            "stepping\t: %d\nmicrocode\t: %s\ncpu MHz\t\t: %.3f\ncache size\t: %d KB\nphysical id\t: %d\n"
            "siblings\t: %d\ncore id\t\t: %d\ncpu cores\t: %d\napicid\t\t: %d\ninitial apicid\t: %d\n"
            "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 16\nwp\t\t: yes\nflags\t\t: %s\n"
            "bugs\t\t: %s\nbogomips\t: %.2f\nTLB size\t: %s\nclflush size\t: 64\ncache_alignment\t: 64\n"
            "address sizes\t: %s\npower management: %s\n\n"
            % (cpu, family, model, model_name, stepping, microcode, mhz, cache_kb, socket, per_socket, core, cores,
               apic(socket, core, local // cores), apic(socket, core, local // cores), flags, bugs, bogomips, tlb,
               addr_sizes, pm))
    return "".join(out)


ZEN_FLAGS_COMMON = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush mmx fxsr sse "
                    "sse2 ht syscall nx mmxext fxsr_opt pdpe1gb rdtscp lm constant_tsc rep_good nopl nonstop_tsc cpuid "
                    "extd_apicid aperfmperf rapl pni pclmulqdq monitor ssse3 fma cx16 sse4_1 sse4_2 x2apic movbe "
                    "popcnt aes xsave avx f16c rdrand lahf_lm cmp_legacy svm extapic cr8_legacy abm sse4a misalignsse "
                    "3dnowprefetch osvw ibs skinit wdt tce topoext perfctr_core perfctr_nb bpext perfctr_llc mwaitx "
                    "cpb cat_l3 cdp_l3 hw_pstate ssbd mba ibrs ibpb stibp vmmcall fsgsbase bmi1 avx2 smep bmi2 erms "
                    "invpcid cqm rdt_a rdseed adx smap clflushopt clwb sha_ni xsaveopt xsavec xgetbv1 xsaves cqm_llc "
                    "cqm_occup_llc cqm_mbm_total cqm_mbm_local clzero irperf xsaveerptr rdpru wbnoinvd arat npt lbrv "
                    "svm_lock nrip_save tsc_scale vmcb_clean flushbyasid decodeassists pausefilter pfthreshold avic "
                    "v_vmsave_vmload vgif v_spec_ctrl umip pku ospke vaes vpclmulqdq rdpid overflow_recov succor smca")
ZEN3_FLAGS = ZEN_FLAGS_COMMON + " fsrm"
ZEN4_FLAGS = (ZEN_FLAGS_COMMON.replace("ibrs ibpb stibp", "perfmon_v2 ibrs ibpb stibp ibrs_enhanced")
              .replace("sha_ni", "avx512f avx512dq avx512ifma avx512cd sha_ni avx512bw avx512vl")
              .replace("clzero", "avx512_bf16 clzero") + " avx512vbmi avx512_vbmi2 gfni avx512_vnni avx512_bitalg "
              "avx512_vpopcntdq fsrm flush_l1d")
INTEL_FLAGS = ("fpu vme de pse tsc msr pae mce cx8 apic sep mtrr pge mca cmov pat pse36 clflush dts acpi mmx fxsr sse "
               "sse2 ss ht tm pbe syscall nx pdpe1gb rdtscp lm constant_tsc art arch_perfmon pebs bts rep_good nopl "
               "xtopology nonstop_tsc cpuid aperfmperf tsc_known_freq pni pclmulqdq dtes64 monitor ds_cpl vmx smx est "
               "tm2 ssse3 sdbg fma cx16 xtpr pdcm sse4_1 sse4_2 x2apic movbe popcnt tsc_deadline_timer aes xsave avx "
               "f16c rdrand lahf_lm abm 3dnowprefetch cpuid_fault epb ssbd ibrs ibpb stibp ibrs_enhanced tpr_shadow "
               "flexpriority ept vpid ept_ad fsgsbase tsc_adjust bmi1 avx2 smep bmi2 erms invpcid rdseed adx smap "
               "clflushopt clwb intel_pt sha_ni xsaveopt xsavec xgetbv1 xsaves split_lock_detect avx_vnni dtherm ida "
               "arat pln pts hwp hwp_notify hwp_act_window hwp_epp hwp_pkg_req hfi vnmi umip pku ospke waitpkg gfni "
               "vaes vpclmulqdq rdpid movdiri movdir64b fsrm md_clear serialize pconfig arch_lbr ibt flush_l1d "
               "arch_capabilities")


def intel_cpuinfo(model_name, threads, pcores, ecores):
    out = []
    for cpu in range(threads):
        core = cpu // 2 * 4 if cpu < pcores * 2 else 32 + (cpu - pcores * 2)
        out.append(
            "processor\t: %d\nvendor_id\t: GenuineIntel\ncpu family\t: 6\nmodel\t\t: 183\nmodel name\t: %s\n"
            "stepping\t: 1\nmicrocode\t: 0x129\ncpu MHz\t\t: 800.000\ncache size\t: 30720 KB\nphysical id\t: 0\n"
            "siblings\t: %d\ncore id\t\t: %d\ncpu cores\t: %d\napicid\t\t: %d\ninitial apicid\t: %d\n"
            "fpu\t\t: yes\nfpu_exception\t: yes\ncpuid level\t: 32\nwp\t\t: yes\nflags\t\t: %s\n"
            "vmx flags\t: vnmi preemption_timer posted_intr invvpid ept_x_only ept_ad ept_1gb flexpriority apicv "
            "tsc_offset vtpr mtf vapic ept vpid unrestricted_guest vapic_reg vid ple shadow_vmcs ept_mode_based_exec "
            "tsc_scaling usr_wait_pause\nbugs\t\t: spectre_v1 spectre_v2 spec_store_bypass swapgs eibrs_pbrsb rfds "
            "bhi\nbogomips\t: 6835.20\nclflush size\t: 64\ncache_alignment\t: 64\naddress sizes\t: 46 bits physical, "
            "48 bits virtual\npower management:\n\n"
            % (cpu, model_name, threads, core, pcores + ecores, cpu if cpu < pcores * 2 else 64 + cpu,
               cpu if cpu < pcores * 2 else 64 + cpu, INTEL_FLAGS))
    return "".join(out)


def meminfo(total_kb):
    free = total_kb * 7 // 10
    avail = total_kb * 85 // 100
    rows = [("MemTotal", total_kb), ("MemFree", free), ("MemAvailable", avail), ("Buffers", 412340),
            ("Cached", total_kb // 8), ("SwapCached", 0), ("Active", total_kb // 10), ("Inactive", total_kb // 9),
            ("Active(anon)", total_kb // 20), ("Inactive(anon)", 0), ("Active(file)", total_kb // 20),
            ("Inactive(file)", total_kb // 9), ("Unevictable", 16384), ("Mlocked", 16384),
            ("SwapTotal", 8388604), ("SwapFree", 8388604), ("Zswap", 0), ("Zswapped", 0), ("Dirty", 1284),
            ("Writeback", 0), ("AnonPages", total_kb // 20), ("Mapped", 1021532), ("Shmem", 243212),
            ("KReclaimable", 301456), ("Slab", 612840), ("SReclaimable", 301456), ("SUnreclaim", 311384),
            ("KernelStack", 23472), ("PageTables", 61236), ("SecPageTables", 0), ("NFS_Unstable", 0),
            ("Bounce", 0), ("WritebackTmp", 0), ("CommitLimit", total_kb // 2 + 8388604),
            ("Committed_AS", 9871244), ("VmallocTotal", 34359738367), ("VmallocUsed", 132604),
            ("VmallocChunk", 0), ("Percpu", 28672), ("HardwareCorrupted", 0), ("AnonHugePages", 0),
            ("ShmemHugePages", 0), ("ShmemPmdMapped", 0), ("FileHugePages", 0), ("FilePmdMapped", 0),
            ("Unaccepted", 0)]
    text = "".join("%-16s%8d kB\n" % (k + ":", v) for k, v in rows)
    text += "HugePages_Total:       0\nHugePages_Free:        0\nHugePages_Rsvd:        0\nHugePages_Surp:        0\n"
    text += "Hugepagesize:       2048 kB\nHugetlb:               0 kB\nDirectMap4k:      712836 kB\n"
    text += "DirectMap2M:    %8d kB\nDirectMap1G:    %8d kB\n" % (total_kb // 4, total_kb // 2)
    return text


UBUNTU = {
    "26.04": ("26.04.1 LTS", "Resolute Raccoon", "resolute"),
    "24.04": ("24.04.1 LTS", "Noble Numbat", "noble"),
    "22.04": ("22.04.4 LTS", "Jammy Jellyfish", "jammy"),
}


def os_release(t, version):
    full, name, code = UBUNTU[version]
    t.write("/usr/lib/os-release",
            'PRETTY_NAME="Ubuntu %s"\nNAME="Ubuntu"\nVERSION_ID="%s"\nVERSION="%s (%s)"\nVERSION_CODENAME=%s\n'
            'ID=ubuntu\nID_LIKE=debian\nHOME_URL="https://www.ubuntu.com/"\nSUPPORT_URL="https://help.ubuntu.com/"\n'
            'BUG_REPORT_URL="https://bugs.launchpad.net/ubuntu/"\n'
            'PRIVACY_POLICY_URL="https://www.ubuntu.com/legal/terms-and-policies/privacy-policy"\n'
            'UBUNTU_CODENAME=%s\nLOGO=ubuntu-logo\n' % (full, version, full, name, code, code))
    t.link("/etc/os-release", "../usr/lib/os-release")


def kernel_files(t, release, proc_version, cmdline, has_arch_file=True, dmesg_restrict=1):
    t.attr("/proc/sys/kernel/osrelease", release)
    if has_arch_file:  # kernel.arch exists from Linux 6.1
        t.attr("/proc/sys/kernel/arch", "x86_64")
    t.attr("/proc/sys/kernel/dmesg_restrict", dmesg_restrict)
    t.write("/proc/version", proc_version + "\n")
    t.write("/proc/cmdline", cmdline + "\n")


def uid_map(t, ranges):
    """/proc/self/uid_map (kernel/user_namespace.c, uid_m_show: "%10u %10u %10u\n"): one (first id inside,
    first id outside, count) per range; the initial user namespace maps all of 0-4294967294 to itself."""
    t.write("/proc/self/uid_map", "".join("%10u %10u %10u\n" % r for r in ranges))


INITIAL_USER_NS = [(0, 0, 4294967295)]


def proc_modules(entries):
    """/proc/modules (kernel/module/procfs.c): name size refcount deps state address [taints]."""
    out = []
    for name, size, refs, users, taint in entries:
        deps = "".join(u + "," for u in users) or "-"
        out.append("%s %d %d %s Live 0x0000000000000000%s\n" % (name, size, refs, deps, " (%s)" % taint if taint else ""))
    return "".join(out)


AMDGPU_STACK = [
    ("amdgpu", 19652608, 30, [], None),
    ("amdxcp", 12288, 1, ["amdgpu"], None),
    ("drm_exec", 12288, 1, ["amdgpu"], None),
    ("gpu_sched", 61440, 1, ["amdgpu"], None),
    ("drm_buddy", 20480, 1, ["amdgpu"], None),
    ("drm_suballoc_helper", 16384, 1, ["amdgpu"], None),
    ("drm_ttm_helper", 12288, 1, ["amdgpu"], None),
    ("ttm", 110592, 2, ["amdgpu", "drm_ttm_helper"], None),
    ("drm_display_helper", 237568, 1, ["amdgpu"], None),
    ("i2c_algo_bit", 16384, 1, ["amdgpu"], None),
    ("video", 73728, 1, ["amdgpu"], None),
]
COMMON_MODULES = [
    ("snd_hda_intel", 61440, 4, [], None),
    ("snd_hda_codec", 204800, 1, ["snd_hda_intel"], None),
    ("nvme", 61440, 3, [], None),
    ("nvme_core", 208896, 4, ["nvme"], None),
    ("r8169", 110592, 0, [], None),
    ("crct10dif_pclmul", 12288, 1, [], None),
]


def amdgpu_module(t, version=None):
    t.attr("/sys/module/amdgpu/initstate", "live")
    t.attr("/sys/module/amdgpu/refcnt", 30)
    if version:
        t.attr("/sys/module/amdgpu/version", version)


def modprobe_d(t, extra=None):
    t.write("/etc/modprobe.d/blacklist.conf",
            "# This file lists those modules which we don't want to be loaded by\n"
            "# alias expansion, usually so some other driver will be loaded for the\n# device instead.\n\n"
            "# evbug is a debug tool that should be loaded explicitly\nblacklist evbug\n\n"
            "# these drivers are very simple, the HID drivers are usually preferred\nblacklist usbmouse\n"
            "blacklist usbkbd\n")
    for path, text in (extra or {}).items():
        t.write(path, text)


def dmi(t, vendor, product, board, bios):
    for k, v in (("sys_vendor", vendor), ("product_name", product), ("board_name", board),
                 ("bios_version", bios), ("board_vendor", vendor), ("bios_vendor", "American Megatrends Inc.")):
        t.attr("/sys/devices/virtual/dmi/id/" + k, v)
    t.sysfs_link("/sys/class/dmi/id", "/sys/devices/virtual/dmi/id")


def firmware(t, secure_boot, lockdown="[none] integrity confidentiality", aspm="[default] performance powersave "
             "powersupersave"):
    if secure_boot is not None:
        t.attr("/sys/firmware/efi/fw_platform_size", 64)
        # efivarfs: 4 bytes of attributes (NV|BS|RT = 0x06), then the one-byte value.
        t.write("/sys/firmware/efi/efivars/SecureBoot-8be4df61-93ca-11d2-aa0d-00e098032b8c",
                struct.pack("<IB", 0x06, 1 if secure_boot else 0))
    if lockdown:
        t.attr("/sys/kernel/security/lockdown", lockdown)
    t.attr("/sys/module/pcie_aspm/parameters/policy", aspm)


def amd_iommu_unit(t, addr_path, name="ivhd0"):
    t.sysfs_link("/sys/class/iommu/" + name, addr_path + "/iommu/" + name)
    t.attr(addr_path + "/iommu/" + name + "/amd-iommu/cap", "%x" % 0x00190020)  # amd_iommu_show_cap: "%x\n"


def etc_users(t, passwd_extra, groups):
    passwd = ("root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
              "bin:x:2:2:bin:/bin:/usr/sbin/nologin\nsys:x:3:3:sys:/dev:/usr/sbin/nologin\n"
              "syslog:x:102:102::/nonexistent:/usr/sbin/nologin\n")
    t.write("/etc/passwd", passwd + "".join(l + "\n" for l in passwd_extra))
    t.write("/etc/group", "".join("%s:x:%d:%s\n" % (n, gid, ",".join(members)) for n, gid, members in groups))


def ubuntu_groups(user, render_gid, member_of, extra=()):
    base = [("root", 0), ("daemon", 1), ("bin", 2), ("sys", 3), ("adm", 4), ("tty", 5), ("disk", 6), ("lp", 7),
            ("mail", 8), ("news", 9), ("cdrom", 24), ("sudo", 27), ("dip", 30), ("www-data", 33),
            ("video", 44), ("plugdev", 46), ("staff", 50), ("users", 100), ("nogroup", 65534),
            ("systemd-journal", 999), ("syslog", 102), ("lpadmin", 114), ("render", render_gid)]
    rows = []
    for name, gid in base + list(extra):
        members = [user] if name in member_of else []
        if name == "adm":
            members = ["syslog"] + members
        rows.append((name, gid, members))
    rows.append((user, 1000, []))
    return sorted(rows, key=lambda r: r[1] if r[1] != 65534 else 10 ** 6)


def dpkg_stanza(package, version, maintainer, description, arch="amd64", section="devel", depends=None,
                installed_size=100, source=None, status="install ok installed", homepage=None):
    lines = ["Package: " + package, "Status: " + status, "Priority: optional", "Section: " + section,
             "Installed-Size: %d" % installed_size, "Maintainer: " + maintainer, "Architecture: " + arch]
    if source:
        lines.append("Source: " + source)
    lines.append("Version: " + version)
    if depends:
        lines.append("Depends: " + depends)
    lines.append("Description: " + description)
    if homepage:
        lines.append("Homepage: " + homepage)
    return "\n".join(lines) + "\n"


ROCM_MAINT = "ROCm Dev Support <rocm-dev.support@amd.com>"
UBUNTU_MAINT = "Ubuntu Developers <ubuntu-devel-discuss@lists.ubuntu.com>"


def base_packages(series):
    """A few ordinary packages so a ROCm filter has something to skip."""
    if series == "resolute":
        return [dpkg_stanza("bash", "5.3-1ubuntu1", UBUNTU_MAINT, "GNU Bourne Again SHell", section="shells",
                            installed_size=1880, status="install ok installed"),
                dpkg_stanza("python3.14", "3.14.2-1", UBUNTU_MAINT,
                            "Interactive high-level object-oriented language (version 3.14)", section="python",
                            installed_size=640),
                dpkg_stanza("linux-image-7.0.0-15-generic", "7.0.0-15.15", "Ubuntu Kernel Team <kernel-team@lists.ubuntu.com>",
                            "Signed kernel image generic", section="kernel", installed_size=16112,
                            source="linux-signed")]
    if series == "noble":
        return [dpkg_stanza("bash", "5.2.21-2ubuntu4", UBUNTU_MAINT, "GNU Bourne Again SHell", section="shells",
                            installed_size=1864, status="install ok installed"),
                dpkg_stanza("python3.12", "3.12.3-1ubuntu0.1", UBUNTU_MAINT,
                            "Interactive high-level object-oriented language (version 3.12)", section="python",
                            installed_size=631),
                dpkg_stanza("linux-image-6.8.0-45-generic", "6.8.0-45.45", "Ubuntu Kernel Team <kernel-team@lists.ubuntu.com>",
                            "Signed kernel image generic", section="kernel", installed_size=15320,
                            source="linux-signed")]
    return [dpkg_stanza("bash", "5.1-6ubuntu1.1", UBUNTU_MAINT, "GNU Bourne Again SHell", section="shells",
                        installed_size=1864),
            dpkg_stanza("python3.10", "3.10.12-1~22.04.6", UBUNTU_MAINT,
                        "Interactive high-level object-oriented language (version 3.10)", section="python",
                        installed_size=611)]


def rocm_packages(ver, build, series, hip="6.4.43483", rocr="1.15.0"):
    """AMD's repository builds: VERSION.<60401>-<build>~<distro version>."""
    major, minor, patch = (int(x) for x in ver.split("."))
    code = "%d%02d%02d" % (major, minor, patch)
    suffix = "%s-%s~%s" % (code, build, {"noble": "24.04", "jammy": "22.04"}[series])
    v = lambda upstream: "%s.%s" % (upstream, suffix)
    pkgs = [("rocm-core", v(ver), "ROCm Runtime software stack", None),
            ("hsa-rocr", v(rocr), "AMD Heterogeneous System Architecture HSA - Linux HSA Runtime for Boltzmann "
             "(ROCm) platforms", "rocm-core (= %s)" % v(ver)),
            ("rocminfo", v("1.0.0"), "Radeon Open Compute (ROCm) Runtime rocminfo tool", "hsa-rocr, rocm-core"),
            ("hip-runtime-amd", v(hip), "HIP:Heterogenous-computing Interface for Portability [AMD]",
             "hsa-rocr (>= 1.3), rocminfo, comgr (>= 2.0), rocm-core"),
            ("rocm-hip-runtime", v(ver), "Radeon Open Compute (ROCm) Runtime software stack",
             "hip-runtime-amd (= %s), rocm-core (= %s)" % (v(hip), v(ver))),
            ("rocm", v(ver), "Radeon Open Compute (ROCm) software stack meta package",
             "rocm-hip-runtime (= %s), rocm-core (= %s)" % (v(ver), v(ver)))]
    return [dpkg_stanza(n, version, ROCM_MAINT, d, depends=dep, homepage="https://github.com/ROCm/ROCm",
                        installed_size=13) for n, version, d, dep in pkgs]


def dkms_packages(kver, build, rocm_code, distro="24.04", libc="2.39"):
    """amdgpu-dkms from repo.radeon.com/amdgpu: epoch 1, <kernel base>.<60401>-<build>.<distro version>."""
    version = "1:%s.%s-%s.%s" % (kver, rocm_code, build, distro)
    maint = "Advanced Micro Devices (AMD) <gpudriverdevsupport@amd.com>"
    return [dpkg_stanza("amdgpu-dkms-firmware", version, maint, "firmware blobs used by amdgpu driver in DKMS format",
                        arch="all", section="misc", installed_size=67000),
            dpkg_stanza("amdgpu-dkms", version, maint, "amdgpu driver in DKMS format.", arch="all", section="misc",
                        depends="dkms (>= 1.95), libc6-dev (>= %s) | libc-dev, autoconf, automake, "
                        "amdgpu-dkms-firmware (= %s)" % (libc, version), installed_size=511000)]


def apt_rocm(t, ver, series, amdgpu_repo=True):
    """As in ROCm's install-on-linux docs: one-line sources and the 600 pin."""
    lines = "deb [arch=amd64 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/rocm/apt/%s %s main\n" % (ver, series)
    t.write("/etc/apt/sources.list.d/rocm.list", lines)
    if amdgpu_repo:
        t.write("/etc/apt/sources.list.d/amdgpu.list",
                "deb [arch=amd64,i386 signed-by=/etc/apt/keyrings/rocm.gpg] https://repo.radeon.com/amdgpu/%s/ubuntu "
                "%s main\n" % (ver, series))
    t.write("/etc/apt/preferences.d/rocm-pin-600", "Package: *\nPin: release o=repo.radeon.com\nPin-Priority: 600\n")


def apt_ubuntu(t, series):
    if series in ("noble", "resolute"):  # 24.04 and later ship deb822 sources
        t.write("/etc/apt/sources.list",
                "# Ubuntu sources have moved to /etc/apt/sources.list.d/ubuntu.sources\n")
        t.write("/etc/apt/sources.list.d/ubuntu.sources",
                "Types: deb\nURIs: http://archive.ubuntu.com/ubuntu/\nSuites: %s %s-updates %s-backports\n"
                "Components: main restricted universe multiverse\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n"
                "\nTypes: deb\nURIs: http://security.ubuntu.com/ubuntu/\nSuites: %s-security\n"
                "Components: main restricted universe multiverse\nSigned-By: /usr/share/keyrings/ubuntu-archive-keyring.gpg\n"
                % (series, series, series, series))
    else:
        t.write("/etc/apt/sources.list",
                "deb http://archive.ubuntu.com/ubuntu/ jammy main restricted\n"
                "deb http://archive.ubuntu.com/ubuntu/ jammy-updates main restricted\n"
                "deb http://archive.ubuntu.com/ubuntu/ jammy universe\n"
                "deb http://security.ubuntu.com/ubuntu/ jammy-security main restricted\n")


def rocm_install(t, ver, build):
    """/opt/rocm-X with .info/version, /opt/rocm -> it, and rocm-core's ld.so.conf.d entry;
    rocm-opencl's loader entry and ICD file (amdocl64_<60401>_<83>.icd naming libamdocl64.so,
    as AMD's package writes it)."""
    t.write("/opt/rocm-%s/.info/version" % ver, "%s-%s\n" % (ver, build))
    t.link("/opt/rocm", "/opt/rocm-%s" % ver)
    t.write("/etc/ld.so.conf.d/10-rocm-opencl.conf", "/opt/rocm-%s/lib\n" % ver)
    code = "".join("%02d" % int(x) if i else x for i, x in enumerate(ver.split(".")))
    t.write("/etc/OpenCL/vendors/amdocl64_%s_%s.icd" % (code, build), "libamdocl64.so\n")
    t.write("/etc/ld.so.conf.d/rocm.conf", "/opt/rocm/lib\n/opt/rocm/lib64\n")


def torch_version_py(version, hip=None, cuda=None, git="e2d141dbde55c2a4370fac5165b0561b6af4798b"):
    """torch/version.py as tools/generate_torch_version.py writes it."""
    q = lambda v: "'%s'" % v if v is not None else "None"
    return ("from typing import Optional\n\n"
            "__all__ = ['__version__', 'debug', 'cuda', 'git_version', 'hip', 'xpu']\n"
            "__version__ = '%s'\ndebug = False\ncuda: Optional[str] = %s\ngit_version = '%s'\n"
            "hip: Optional[str] = %s\nxpu: Optional[str] = None\n" % (version, q(cuda), git, q(hip)))


def torch_install(t, site, version, hip=None, cuda=None):
    t.write(site + "/torch/version.py", torch_version_py(version, hip, cuda))
    t.write(site + "/torch/__init__.py", '"""The torch package (placeholder: only version.py is read)."""\n')
    t.write(site + "/torch-%s.dist-info/METADATA" % version,
            "Metadata-Version: 2.1\nName: torch\nVersion: %s\nSummary: Tensors and Dynamic neural networks in Python "
            "with strong GPU acceleration\n" % version)


OLLAMA_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin"


def ollama_install(t, rocblas_targets, path=OLLAMA_PATH):
    """What ollama's install.sh leaves that rocmdoc reads: the ROCm it bundles in /usr/local/lib/ollama/rocm,
    of which only rocBLAS's kernel files matter (TensileLibrary_lazy_<gfx>.dat per target; ollama and rocmdoc
    go by the names, so the files are empty here), and the systemd unit the script writes, whose only
    Environment= is the PATH the script ran with. The executable itself is left out: no probe reads it."""
    for gfx in rocblas_targets:
        t.write("/usr/local/lib/ollama/rocm/rocblas/library/TensileLibrary_lazy_%s.dat" % gfx, b"")
    t.write("/etc/systemd/system/ollama.service",
            "[Unit]\nDescription=Ollama Service\nAfter=network-online.target\n\n"
            "[Service]\nExecStart=/usr/local/bin/ollama serve\nUser=ollama\nGroup=ollama\nRestart=always\n"
            "RestartSec=3\nEnvironment=\"PATH=%s\"\n\n[Install]\nWantedBy=default.target\n" % path)


ELF_STUB = b"\x7fELF\x02\x01\x01\x00" + b"\x00" * 56  # an ELF header's first bytes; no probe runs it


def system_python(t, minor):
    t.write("/usr/bin/python3.%d" % minor, ELF_STUB)
    t.link("/usr/bin/python3", "python3.%d" % minor)
    t.write("/usr/lib/python3.%d/os.py" % minor, '"""OS routines (placeholder)."""\n')
    t.write("/usr/lib/python3/dist-packages/README.txt", "Debian python3 dist-packages directory.\n")


def venv(t, path, minor, patch):
    """python3 -m venv: symlinks to the base interpreter and pyvenv.cfg."""
    t.link(path + "/bin/python", "python3")
    t.link(path + "/bin/python3", "/usr/bin/python3")
    t.link(path + "/bin/python3.%d" % minor, "python3")
    t.write(path + "/pyvenv.cfg",
            "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.%d.%d\n"
            "executable = /usr/bin/python3.%d\ncommand = /usr/bin/python3 -m venv %s\n" % (minor, patch, minor, path))
    return path + "/lib/python3.%d/site-packages" % minor


def dkms_tree(t, module_ver, release):
    """DKMS 3.x: /var/lib/dkms/amdgpu/<ver>/<kernel>/<arch>/module/*.ko.zst, plus the installed copy."""
    zst_stub = b"\x28\xb5\x2f\xfd\x00\x00\x00\x00"  # a zstd frame magic; contents are never read
    base = "/var/lib/dkms/amdgpu/" + module_ver
    t.link(base + "/source", "/usr/src/amdgpu-" + module_ver)
    t.write("/usr/src/amdgpu-%s/dkms.conf" % module_ver,
            'PACKAGE_NAME="amdgpu"\nPACKAGE_VERSION="%s"\nAUTOINSTALL="yes"\n' % module_ver)
    if release:
        t.write(base + "/%s/x86_64/module/amdgpu.ko.zst" % release, zst_stub)
        t.write(base + "/%s/x86_64/log/make.log" % release, "DKMS make.log for amdgpu-%s for kernel %s (x86_64)\n"
                % (module_ver, release))
        t.link("/var/lib/dkms/amdgpu/kernel-%s-x86_64" % release, "%s/%s/x86_64" % (module_ver, release))
        t.write("/lib/modules/%s/updates/dkms/amdgpu.ko.zst" % release, zst_stub)


def kernel_headers(t, release):
    t.link("/lib/modules/%s/build" % release, "/usr/src/linux-headers-" + release)
    t.write("/usr/src/linux-headers-%s/Makefile" % release, "# Ubuntu kernel headers for %s\n" % release)
    t.write("/lib/modules/%s/modules.builtin" % release,
            "kernel/drivers/pci/pci-stub.ko\nkernel/drivers/gpu/drm/drm_panel_orientation_quirks.ko\n"
            "kernel/drivers/video/fbdev/core/fb.ko\n")


def sidecar(t, user, env, nodes, commands, created):
    doc = {"schema": 1, "kind": "rocmdoc-snapshot", "generator": "tests/machines/tools/make_fixture.py",
           "created": created, "redacted": True, "user": user,
           "env": {"values": env, "recorded": ["*"]}, "nodes": nodes, "commands": commands}
    t.write("/.rocmdoc/machine.json", json.dumps(doc, indent=2, sort_keys=True) + "\n")


def cdev(mode, uid, gid):
    return {"type": "char_device", "mode": mode, "uid": uid, "gid": gid}


def dmesg_ok(lines):
    return {"dmesg": {"started": True, "exit_code": 0, "stdout": "".join(l + "\n" for l in lines), "stderr": ""}}


DMESG_DENIED = {"dmesg": {"started": True, "exit_code": 1, "stdout": "",
                          "stderr": "dmesg: read kernel buffer failed: Operation not permitted\n"}}

SUDO_PATH = "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/snap/bin"


def sudo_env(user):
    return {"PATH": SUDO_PATH, "HOME": "/root", "USER": "root", "LOGNAME": "root", "SUDO_USER": user,
            "SUDO_UID": "1000", "SUDO_GID": "1000"}


def write_expect(name, about, facts, python_paths=None):
    doc = {"about": about}
    if python_paths:
        doc["python_paths"] = python_paths
    doc["facts"] = facts
    with open(os.path.join(MACHINES, name, "expect.json"), "w") as f:
        f.write(json.dumps(doc, indent=2) + "\n")


# ----------------------------------------------------------------------------
# Shared hardware pieces

NAVI31_KFD = dict(simd=192, caches=206, simd_id_base=2147488032, arrays=12, cu_per_array=8, gfx=110000,
                  device=0x744C, clk=2482, fw=2140, capability=671588992, sdma_fw=20, name="ip discovery",
                  heap=1, vram=25753026560, mem_width=384, mem_clk=1249)


def navi_card(root_port, up, down, gpu, audio, device, audio_device, rev, sub, bars, link_gen=4, link_w=16,
              up_link=None, render=128, card=1, boot_vga=True, gpu_cls=0x030000, iommu=(10, 11)):
    """A Radeon board: the GPU's internal switch (upstream 1478, downstream 1479), the GPU and its audio."""
    ul = up_link or (link_gen, link_w)
    return [
        Pci(up, 0x1002, 0x1478, 0x060400, parent=root_port, rev=0x10, driver="pcieport",
            pcie=dict(type="upstream", max=(4, 16), cur=ul, routing=True),
            windows=[(0, 0, 0), (bars["mmio"], 0x200000, WIN_MEM), (bars["vram"], bars["pref_window"], WIN_PREF)],
            bus_range=(int(down[5:7], 16), int(gpu[5:7], 16)), iommu_group=iommu[0]),
        Pci(down, 0x1002, 0x1479, 0x060400, parent=up, rev=0x10, driver="pcieport",
            pcie=dict(type="downstream", max=(4, 16), cur=(4, 16), routing=True),
            windows=[(0, 0, 0), (bars["mmio"], 0x200000, WIN_MEM), (bars["vram"], bars["pref_window"], WIN_PREF)],
            bus_range=(int(gpu[5:7], 16), int(gpu[5:7], 16)), iommu_group=iommu[0]),
        Pci(gpu, 0x1002, device, gpu_cls, parent=down, rev=rev, sub=sub, driver=bars.get("driver", "amdgpu"),
            pcie=dict(type="legacy", max=(4, 16), cur=(4, 16), req=bars.get("req", True)),
            bars=[(0, bars["vram"], bars["bar0"], MEM64_PREF), (2, bars["vram"] + bars["bar0"], 256 * MiB, MEM64_PREF),
                  (5, bars["mmio"], MiB, MEM32), (6, bars["mmio"] + MiB, 128 * 1024, ROM)]
            + ([(4, bars["io"], 0x100, IO)] if bars.get("io") else []),
            iommu_group=iommu[1], multifunction=True,
            drm=dict(card="card%d" % card, render="renderD%d" % render, boot_vga=boot_vga)
            if bars.get("driver", "amdgpu") == "amdgpu" else None),
        Pci(audio, 0x1002, audio_device, 0x040300, parent=down, sub=sub, driver="snd_hda_intel",
            pcie=dict(type="legacy", max=(4, 16), cur=(4, 16)),
            bars=[(0, bars["mmio"] + MiB + 128 * 1024, 0x4000, MEM32)], iommu_group=iommu[1]),
    ]


def amd_host(rc_dev, iommu_dev, root_addr, root_dev, sec, sub, pref_base, pref_size, mmio, root_gen=(4, 16),
             root_max=(4, 16), io_base=0xF000, groups=(0, 1, 2), root_complete=True):
    return [
        Pci("0000:00:00.0", 0x1022, rc_dev, 0x060000, sub=(0x1022, rc_dev), iommu_group=None),
        Pci("0000:00:00.2", 0x1022, iommu_dev, 0x080600, sub=(0x1022, iommu_dev), iommu_group=None),
        Pci(root_addr, 0x1022, root_dev, 0x060400, driver="pcieport",
            pcie=dict(type="root", max=root_max, cur=root_gen, routing=True, c32=root_complete, c64=root_complete,
                      c128=root_complete),
            windows=[(io_base, 0x1000, WIN_IO), (mmio, 0x400000, WIN_MEM), (pref_base, pref_size, WIN_PREF)],
            bus_range=(sec, sub), iommu_group=groups[2]),
    ]


def healthy_dmesg(release, pci_addr, ids, vram_mib, gpu_node_line, extra=()):
    return [
        "[    0.000000] Linux version %s (buildd@lcy02-amd64-115) (x86_64-linux-gnu-gcc-13 (Ubuntu 13.2.0-23ubuntu4) "
        "13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #45-Ubuntu SMP PREEMPT_DYNAMIC Fri Aug 30 12:02:04 UTC 2024"
        % release,
        "[    0.612093] pci 0000:00:00.2: AMD-Vi: IOMMU performance counters supported",
        "[    0.615842] AMD-Vi: Interrupt remapping enabled",
        "[    0.652201] iommu: Default domain type: Translated",
        "[    0.652203] iommu: DMA domain TLB invalidation policy: lazy mode",
        "[    3.412250] [drm] amdgpu kernel modesetting enabled.",
        "[    3.418372] amdgpu: Virtual CRAT table created for CPU",
        "[    3.418389] amdgpu: Topology: Add CPU node",
        "[    3.418512] amdgpu %s: enabling device (0006 -> 0007)" % pci_addr,
        "[    3.418833] [drm] initializing kernel modesetting (IP DISCOVERY %s 0xC8)." % ids,
        "[    3.512406] amdgpu %s: amdgpu: VRAM: %dM 0x0000008000000000 - 0x%016X (%dM used)"
        % (pci_addr, vram_mib, 0x8000000000 + vram_mib * MiB - 1, vram_mib),
        "[    3.512417] [drm] amdgpu: %dM of VRAM memory ready" % vram_mib,
        "[    4.104551] kfd kfd: amdgpu: Allocated 3969056 bytes on gart",
        "[    4.104562] kfd kfd: amdgpu: Total number of KFD nodes to be created: 1",
        "[    4.104720] amdgpu: Virtual CRAT table created for GPU",
        "[    4.104873] amdgpu: Topology: Add dGPU node [%s]" % gpu_node_line,
        "[    4.104880] kfd kfd: amdgpu: added device 1002:%s" % gpu_node_line.split(":")[0][2:],
        "[    4.215634] [drm] Initialized amdgpu 3.57.0 20150101 for %s on minor 1" % pci_addr,
    ] + list(extra)


# ----------------------------------------------------------------------------
# The machines

ZEN4_BUGS = "sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso"
ZEN3_BUGS = "sysret_ss_attrs spectre_v1 spectre_v2 spec_store_bypass srso"
ZEN_PM = "ts ttp tm hwpstate cpb eff_freq_ro [13] [14]"
NOBLE_KERNEL = ("Linux version 6.8.0-45-generic (buildd@lcy02-amd64-115) (x86_64-linux-gnu-gcc-13 (Ubuntu "
                "13.2.0-23ubuntu4) 13.2.0, GNU ld (GNU Binutils for Ubuntu) 2.42) #45-Ubuntu SMP PREEMPT_DYNAMIC "
                "Fri Aug 30 12:02:04 UTC 2024")
NOBLE_CMDLINE = ("BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=7b2f0c1e-4d53-4a8e-9a61-0f3c2d9e8b14 ro quiet "
                 "splash vt.handoff=7")
ALEX = "alex:x:1000:1000:Alex,,,:/home/alex:/bin/bash"
DESKTOP_GROUPS = ("adm", "cdrom", "sudo", "dip", "video", "plugdev", "users", "lpadmin", "render")

RAPHAEL_7700X = dict(model_name="AMD Ryzen 7 7700X 8-Core Processor", family=25, model=97, stepping=2,
                     microcode="0xa601206", cores=8, threads=16, mhz=3000.0, cache_kb=1024, flags=ZEN4_FLAGS,
                     bugs=ZEN4_BUGS, bogomips=8999.93, tlb="3584 4K pages",
                     addr_sizes="48 bits physical, 48 bits virtual", pm=ZEN_PM)
VERMEER_5600X = dict(model_name="AMD Ryzen 5 5600X 6-Core Processor", family=25, model=33, stepping=0,
                     microcode="0xa20120e", cores=6, threads=12, mhz=3700.0, cache_kb=512, flags=ZEN3_FLAGS,
                     bugs=ZEN3_BUGS, bogomips=7386.46, tlb="2560 4K pages",
                     addr_sizes="48 bits physical, 48 bits virtual", pm=ZEN_PM)


def rx7900xtx_desktop_gpu(t, config_size=4096):
    """The 7900 XTX desktop's PCI tree (the X670E host, the Navi 31 card behind its switch), its IOMMU unit and
    KFD topology: the same box on every distribution. config_size: how much of each device's config space the
    recording could read (4096 as root, 64 as a user). Returns the GPU's sysfs directory."""
    devices = amd_host(0x14D8, 0x14D9, "0000:00:01.1", 0x14DB, 1, 3, 0x7800000000, 0x810000000, 0xFCB00000,
                       root_gen=(4, 16), root_max=(5, 16), io_base=0xE000) + navi_card(
        "0000:00:01.1", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0", "0000:03:00.1", 0x744C, 0xAB30, 0xC8,
        (0x1DA2, 0x471D), dict(vram=0x7800000000, bar0=32 * GiB, pref_window=0x810000000, mmio=0xFCB00000,
                               io=0xE000))
    paths = write_pci(t, devices, config_size, iommu_type="DMA-FQ")
    amd_iommu_unit(t, paths["0000:00:00.2"])
    write_kfd(t, [dict(cores=16, clk=5573, mem=65534068 * 1024, mem_width=64, mem_clk=3000)],
              [dict(NAVI31_KFD, pci="0000:03:00.0", render=128, gpu_id=45157, unique_id=11673270660693242239)])
    return paths["0000:03:00.0"]


def rx7900xtx_desktop(t, *, user_in_render, dkms, sudo, created):
    """The healthy 7900 XTX desktop (and, with user_in_render=False, the same box for a user outside render).
    Returns the GPU's sysfs directory."""
    release = "6.8.0-45-generic"
    os_release(t, "24.04")
    kernel_files(t, release, NOBLE_KERNEL, NOBLE_CMDLINE)
    t.write("/proc/cpuinfo", cpuinfo(**RAPHAEL_7700X))
    t.write("/proc/meminfo", meminfo(65534068))
    modules = [("amdgpu", 19705856, 30, [], "OE")] + [
        (n, s, r, u, "OE") for n, s, r, u in (("amddrm_ttm_helper", 12288, 1, ["amdgpu"]),
                                              ("amdttm", 118784, 2, ["amdgpu", "amddrm_ttm_helper"]),
                                              ("amddrm_buddy", 20480, 1, ["amdgpu"]), ("amdxcp", 12288, 1, ["amdgpu"]),
                                              ("amd_sched", 61440, 1, ["amdgpu"]),
                                              ("amdkcl", 28672, 3, ["amdgpu", "amdttm", "amd_sched"]))
    ] + [m for m in AMDGPU_STACK if m[0] in ("drm_exec", "drm_suballoc_helper", "drm_display_helper", "i2c_algo_bit",
                                                "video")] + COMMON_MODULES if dkms else AMDGPU_STACK + COMMON_MODULES
    t.write("/proc/modules", proc_modules(modules))
    amdgpu_module(t, "6.12.12" if dkms else None)
    modprobe_d(t)
    kernel_headers(t, release)
    if dkms:
        dkms_tree(t, "6.12.12-2164967.24.04", release)
    dmi(t, "ASUS", "System Product Name", "ROG STRIX X670E-E GAMING WIFI", "2007")
    firmware(t, secure_boot=False)

    gpu_path = rx7900xtx_desktop_gpu(t, 4096 if sudo else 64)

    render = 992
    groups = DESKTOP_GROUPS if user_in_render else tuple(g for g in DESKTOP_GROUPS if g != "render")
    etc_users(t, [ALEX], ubuntu_groups("alex", render, groups))
    apt_ubuntu(t, "noble")
    apt_rocm(t, "6.4.1", "noble", amdgpu_repo=dkms)
    rocm_install(t, "6.4.1", "83")
    stanzas = base_packages("noble") + rocm_packages("6.4.1", "83", "noble")
    if dkms:
        stanzas += dkms_packages("6.12.12", "2164967", "60401")
    t.write("/var/lib/dpkg/status", "\n".join(stanzas))
    system_python(t, 12)
    site = venv(t, "/home/alex/venv", 12, 3)
    torch_install(t, site, "2.8.0+rocm6.4", hip="6.4.43482-0f2d60242")

    nodes = {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/card1": cdev("0660", 0, 44)}
    if sudo:
        user = {"name": "root", "uid": 0, "gid": 0, "groups": [0]}
        env = sudo_env("alex")
        commands = dmesg_ok(healthy_dmesg(release, "0000:03:00.0", "0x1002:0x744C 0x1DA2:0x471D", 24560,
                                          "0x744c:0x1002"))
    else:
        gids = [1000, 4, 24, 27, 30, 44, 46, 100, 114] + ([render] if user_in_render else [])
        user = {"name": "alex", "uid": 1000, "gid": 1000, "groups": gids}
        env = {"PATH": "/home/alex/venv/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:"
                       "/usr/games:/usr/local/games:/snap/bin:/opt/rocm/bin",
               "HOME": "/home/alex", "USER": "alex", "LOGNAME": "alex", "VIRTUAL_ENV": "/home/alex/venv"}
        commands = DMESG_DENIED
    sidecar(t, user, env, nodes, commands, created)
    return gpu_path


def navi31_idle_files(t, gpu_path, edge, junction, mem, vr, socket_power):
    """amdgpu's own files for an idle RX 7900 XTX: GC 11.0.0 (gfx1100), both clocks at their lowest dpm
    level, the board's default power cap (327 W of 402), hwmon's edge/junction/mem temperatures, and the same
    moment in the firmware's gpu_metrics table (hwmon's edge/junction/mem are its edge/hotspot/mem; vr: the
    gfx, soc and mem voltage regulators' temperatures), no throttling."""
    ip_discovery(t, gpu_path, "GC", (11, 0, 0))  # Navi 31: GC 11.0.0, gfx1100
    pp_dpm(t, gpu_path + "/pp_dpm_sclk", [500, 1442, 2526], current=0)
    pp_dpm(t, gpu_path + "/pp_dpm_mclk", [96, 456, 772, 1249], current=0)
    hwmon(t, gpu_path, 2, power_cap_w=(327, 327, 402),
          temps=[("edge", edge, 100), ("junction", junction, 110), ("mem", mem, 108)])
    t.write(gpu_path + "/gpu_metrics", gpu_metrics_v1_3(
        temperature_edge=edge, temperature_hotspot=junction, temperature_mem=mem, temperature_vrgfx=vr[0],
        temperature_vrsoc=vr[1], temperature_vrmem=vr[2], average_socket_power=socket_power, current_gfxclk=500,
        current_uclk=96))


def ubuntu2404_rx7900xtx(t):
    gpu_path = rx7900xtx_desktop(t, user_in_render=True, dkms=True, sudo=True, created="2025-06-20T18:04:11Z")
    # amdgpu's own files for the idle card, on this recording of the box only: its power, clock and
    # temperature facts and its GC version are asserted here; the box's other machines leave them unknown.
    navi31_idle_files(t, gpu_path, edge=36, junction=41, mem=48, vr=(40, 38, 42), socket_power=18)
    gpu = "/pci/devices/5"
    return ("Synthetic: Ubuntu 24.04 desktop (Ryzen 7 7700X, X670E) with a Radeon RX 7900 XTX (Navi 31, gfx1100) "
            "behind its own switch, amdgpu-dkms 6.12.12 from ROCm 6.4.1 built for the running kernel, ROCm 6.4.1 "
            "from repo.radeon.com with the 600 pin, torch 2.8.0+rocm6.4 in ~/venv. Recorded with sudo (root, "
            "SUDO_USER=alex), so config space is complete and dmesg readable. Everything healthy: atomics "
            "routed, Gen4 x16, 32 GiB BAR over 24 GiB VRAM.", {
        "/source/recording": "snapshot",
        "/host/arch": "x86_64",
        "/host/cpu_vendor": "AuthenticAMD",
        "/host/cpu_model": "AMD Ryzen 7 7700X 8-Core Processor",
        "/host/cpu_count": 16,
        "/host/memory_bytes": 65534068 * 1024,
        "/distro/id": "ubuntu",
        "/distro/version_id": "24.04",
        "/distro/codename": "noble",
        "/kernel/release": "6.8.0-45-generic",
        "/kernel/version": [6, 8, 0],
        "/kernel/flavour": "generic",
        "/kernel/hwe": False,
        "/kernel/cmdline/iommu": None,
        "/kernel/cmdline/amd_iommu": None,
        "/kernel/cmdline/modprobe_blacklist": [],
        "/platform/kind": "bare_metal",
        "/platform/in_vm": False,
        "/platform/in_container": False,
        "/platform/container_runtime": None,
        "/platform/dmi/board_name": "ROG STRIX X670E-E GAMING WIFI",
        "/pci/devices/0/address": "0000:00:00.0",
        "/pci/devices/0/link": "<unknown>",
        "/pci/devices/2/address": "0000:00:01.1",
        "/pci/devices/2/is_bridge": True,
        "/pci/devices/2/driver": "pcieport",
        "/pci/devices/2/link/max_speed": "32.0 GT/s PCIe",
        "/pci/devices/2/link/current_speed": "16.0 GT/s PCIe",
        gpu + "/address": "0000:03:00.0",
        gpu + "/sysfs_path": "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0/0000:03:00.0",
        gpu + "/vendor_id": "0x1002",
        gpu + "/device_id": "0x744c",
        gpu + "/subsystem_vendor_id": "0x1da2",
        gpu + "/subsystem_device_id": "0x471d",
        gpu + "/revision": "0xc8",
        gpu + "/class": "0x030000",
        gpu + "/driver": "amdgpu",
        gpu + "/boot_vga": True,
        gpu + "/numa_node": -1,
        gpu + "/is_bridge": False,
        gpu + "/link/current_speed": "16.0 GT/s PCIe",
        gpu + "/link/current_width": 16,
        gpu + "/link/max_width": 16,
        gpu + "/parents": ["0000:02:00.0", "0000:01:00.0", "0000:00:01.1"],
        gpu + "/bars/0/index": 0,
        gpu + "/bars/0/start": "0x7800000000",
        gpu + "/bars/0/size_bytes": 32 * GiB,
        gpu + "/bars/1/index": 2,
        gpu + "/bars/1/size_bytes": 256 * MiB,
        "/pci/devices/6/address": "0000:03:00.1",
        "/pci/devices/6/driver": "snd_hda_intel",
        "/pci/devices/6/boot_vga": None,
        "/pci/gpus/0/address": "0000:03:00.0",
        "/pci/gpus/0/vendor": "amd",
        "/pci/gpus/0/device_id": "0x744c",
        "/pci/gpus/0/driver": "amdgpu",
        "/pci/gpus/0/gc_version": "11.0.0",
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/builtin": False,
        "/amdgpu/module/version": "6.12.12",
        "/amdgpu/blacklisted/value": False,
        "/amdgpu/blacklisted/sources": [],
        "/amdgpu/devices/0/address": "0000:03:00.0",
        "/amdgpu/devices/0/driver": "amdgpu",
        "/amdgpu/radeon_bound": [],
        "/amdgpu/dkms/installed": ["6.12.12-2164967.24.04"],
        "/amdgpu/dkms/built_for_running_kernel": True,
        "/amdgpu/dkms/headers_for_running_kernel": True,
        "/kfd/device_node/present": True,
        "/kfd/device_node/type": "char_device",
        "/kfd/nodes/0/cpu_cores_count": 16,
        "/kfd/nodes/0/simd_count": 0,
        "/kfd/nodes/1/id": 1,
        "/kfd/nodes/1/name": "ip discovery",
        "/kfd/nodes/1/gpu_id": 45157,
        "/kfd/nodes/1/simd_count": 192,
        "/kfd/nodes/1/gfx_target_version": 110000,
        "/kfd/nodes/1/gfx": "gfx1100",
        "/kfd/nodes/1/vendor_id": "0x1002",
        "/kfd/nodes/1/device_id": "0x744c",
        "/kfd/nodes/1/location_id": 768,
        "/kfd/nodes/1/domain": 0,
        "/kfd/nodes/1/pci_address": "0000:03:00.0",
        "/kfd/nodes/1/drm_render_minor": 128,
        "/kfd/nodes/1/vram_bytes": 25753026560,
        "/kfd/gpus/0/node": 1,
        "/kfd/gpus/0/gfx": "gfx1100",
        "/kfd/gpus/0/pci_address": "0000:03:00.0",
        "/kfd/gpus/0/render_node": "/dev/dri/renderD128",
        "/kfd/gpus/0/matched_pci": True,
        "/access/user/name": "root",
        "/access/user/uid": 0,
        "/access/user/via_sudo": True,
        "/access/user/sudo_user": "alex",
        "/access/user/target": "alex",
        "/access/target_groups": ["adm", "alex", "cdrom", "dip", "lpadmin", "plugdev", "render", "sudo", "users",
                                  "video"],
        "/access/process_groups": "<unknown>",
        "/access/render_group": {"exists": True, "gid": 992},
        "/access/video_group": {"exists": True, "gid": 44},
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/type": "char_device",
        "/access/nodes/0/owner": "root",
        "/access/nodes/0/group": "render",
        "/access/nodes/0/mode": "0660",
        "/access/nodes/0/can_open_rw": True,
        "/access/nodes/0/how": "modes and groups",
        "/access/nodes/1/path": "/dev/dri/renderD128",
        "/access/nodes/1/mode": "0660",
        "/access/nodes/1/group": "render",
        "/access/nodes/1/can_open_rw": True,
        "/firmware/efi": True,
        "/firmware/secure_boot": False,
        "/firmware/lockdown": "none",
        "/firmware/aspm_policy": "default",
        "/firmware/iommu/units": ["ivhd0"],
        "/firmware/gpus/0/address": "0000:03:00.0",
        "/firmware/gpus/0/iommu_group_type": "DMA-FQ",
        "/firmware/gpus/0/atomics/routed_to_root": True,
        "/firmware/gpus/0/atomics/path/0/address": "0000:03:00.0",
        "/firmware/gpus/0/atomics/path/0/requester_enabled": True,
        "/firmware/gpus/0/atomics/path/1/address": "0000:02:00.0",
        "/firmware/gpus/0/atomics/path/1/routing": True,
        "/firmware/gpus/0/atomics/path/2/address": "0000:01:00.0",
        "/firmware/gpus/0/atomics/path/2/routing": True,
        "/firmware/gpus/0/atomics/path/3/address": "0000:00:01.1",
        "/firmware/gpus/0/atomics/path/3/completer_32": True,
        "/firmware/gpus/0/atomics/path/3/completer_64": True,
        "/firmware/gpus/0/bar/largest_bytes": 32 * GiB,
        "/firmware/gpus/0/bar/vram_bytes": 25753026560,
        "/firmware/gpus/0/bar/large_bar": True,
        "/rocm/default": "/opt/rocm-6.4.1",
        "/rocm/installs/0/path": "/opt/rocm",
        "/rocm/installs/0/link_target": "/opt/rocm-6.4.1",
        "/rocm/installs/1/path": "/opt/rocm-6.4.1",
        "/rocm/installs/1/version": "6.4.1-83",
        "/rocm/packages/0/name": "amdgpu-dkms",
        "/rocm/packages/0/version": "1:6.12.12.60401-2164967.24.04",
        "/rocm/packages/0/origin": "amd",
        "/rocm/packages/5/name": "rocm-core",
        "/rocm/packages/5/version": "6.4.1.60401-83~24.04",
        "/rocm/packages/5/origin": "amd",
        "/rocm/apt_sources/0/file": "/etc/apt/sources.list.d/amdgpu.list",
        "/rocm/apt_sources/0/format": "one-line",
        "/rocm/apt_sources/0/uri": "https://repo.radeon.com/amdgpu/6.4.1/ubuntu",
        "/rocm/apt_sources/0/suite": "noble",
        "/rocm/apt_sources/0/components": ["main"],
        "/rocm/apt_sources/0/enabled": True,
        "/rocm/apt_sources/1/file": "/etc/apt/sources.list.d/rocm.list",
        "/rocm/apt_sources/1/uri": "https://repo.radeon.com/rocm/apt/6.4.1",
        "/rocm/apt_sources/1/suite": "noble",
        "/rocm/opencl_icds/0/file": "/etc/OpenCL/vendors/amdocl64_60401_83.icd",
        "/rocm/opencl_icds/0/library": "libamdocl64.so",
        "/python/interpreters/0/path": "/home/alex/venv/bin/python",
        "/python/interpreters/0/resolved": "/usr/bin/python3.12",
        "/python/interpreters/0/version": "3.12",
        "/python/interpreters/0/kind": "venv",
        "/python/interpreters/0/found_by": "--python",
        "/python/torch/0/site_packages": "/home/alex/venv/lib/python3.12/site-packages",
        "/python/torch/0/version": "2.8.0+rocm6.4",
        "/python/torch/0/hip": "6.4.43482-0f2d60242",
        "/python/torch/0/cuda": None,
        "/python/torch/0/build": "rocm",
        "/python/torch/0/python_version": "3.12",
        "/env/HSA_OVERRIDE_GFX_VERSION": None,
        "/env/HIP_VISIBLE_DEVICES": None,
        "/env/ROCR_VISIBLE_DEVICES": None,
        "/env/path_rocm_entries": [],
        "/kernel_log/readable": True,
        "/kernel_log/source": "dmesg",
    }, ["/home/alex/venv/bin/python"])


def user_not_in_render(t):
    rx7900xtx_desktop(t, user_in_render=False, dkms=False, sudo=False, created="2025-06-21T09:12:40Z")
    return ("Synthetic: the 7900 XTX desktop of ubuntu2404-rx7900xtx with the in-kernel amdgpu (no DKMS), run by "
            "alex himself, who is in video but not in render; /dev/kfd and renderD128 are 0660 root:render, so "
            "neither opens. As an unprivileged run it has 64-byte config space (atomics unknown) and a refused "
            "dmesg.", {
        "/source/recording": "snapshot",
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/version": None,
        "/amdgpu/dkms/installed": [],
        "/kfd/device_node/present": True,
        "/kfd/gpus/0/gfx": "gfx1100",
        "/access/user/name": "alex",
        "/access/user/uid": 1000,
        "/access/user/via_sudo": False,
        "/access/user/sudo_user": None,
        "/access/user/target": "alex",
        "/access/target_groups": ["adm", "alex", "cdrom", "dip", "lpadmin", "plugdev", "sudo", "users", "video"],
        "/access/process_groups": ["adm", "alex", "cdrom", "dip", "lpadmin", "plugdev", "sudo", "users", "video"],
        "/access/groups_pending_relogin": [],
        "/access/render_group": {"exists": True, "gid": 992},
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/owner": "root",
        "/access/nodes/0/group": "render",
        "/access/nodes/0/mode": "0660",
        "/access/nodes/0/mode_allows": False,
        "/access/nodes/0/can_open_rw": "<unknown>",
        "/access/nodes/0/how": "modes and groups",
        "/access/nodes/1/path": "/dev/dri/renderD128",
        "/access/nodes/1/mode_allows": False,
        "/access/nodes/1/can_open_rw": "<unknown>",
        "/firmware/gpus/0/atomics/routed_to_root": "<unknown>",
        "/firmware/gpus/0/bar/large_bar": True,
        "/python/torch/0/site_packages": "/home/alex/venv/lib/python3.12/site-packages",
        "/python/torch/0/build": "rocm",
        "/env/path_rocm_entries": ["/opt/rocm/bin"],
        "/kernel_log": "<unknown>",
    }, None)


JAMMY_HWE_KERNEL = ("Linux version 6.5.0-44-generic (buildd@lcy02-amd64-103) (x86_64-linux-gnu-gcc-12 (Ubuntu "
                    "12.3.0-1ubuntu1~22.04) 12.3.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #44~22.04.1-Ubuntu SMP "
                    "PREEMPT_DYNAMIC Tue Jun 18 14:36:16 UTC 2")
GB = "Gigabyte Technology Co., Ltd."


def ubuntu2204_rx6700xt(t):
    release = "6.5.0-44-generic"
    os_release(t, "22.04")
    kernel_files(t, release, JAMMY_HWE_KERNEL,
                 "BOOT_IMAGE=/boot/vmlinuz-6.5.0-44-generic root=UUID=0c4e9b7a-1f2d-4e6b-8a3c-5d7e9f1a2b3c ro quiet "
                 "splash vt.handoff=7")
    t.write("/proc/cpuinfo", cpuinfo(**VERMEER_5600X))
    t.write("/proc/meminfo", meminfo(32780340))
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + COMMON_MODULES))
    amdgpu_module(t)
    modprobe_d(t)
    kernel_headers(t, release)
    dmi(t, GB, "B550 AORUS ELITE V2", "B550 AORUS ELITE V2", "F16")
    firmware(t, secure_boot=True, lockdown="none [integrity] confidentiality")
    devices = amd_host(0x1480, 0x1481, "0000:00:03.1", 0x1483, 0x0A, 0x0C, 0x7C00000000, 0x410000000, 0xFCA00000,
                       io_base=0xF000) + navi_card(
        "0000:00:03.1", "0000:0a:00.0", "0000:0b:00.0", "0000:0c:00.0", "0000:0c:00.1", 0x73DF, 0xAB28, 0xC1,
        (0x1DA2, 0xE445), dict(vram=0x7C00000000, bar0=16 * GiB, pref_window=0x410000000, mmio=0xFCA00000,
                               io=0xF000), card=0)
    paths = write_pci(t, devices, 64, iommu_type="DMA-FQ")
    amd_iommu_unit(t, paths["0000:00:00.2"])
    write_kfd(t, [dict(cores=12, clk=4650, mem=32780340 * 1024, mem_width=64, mem_clk=1600)],
              [dict(pci="0000:0c:00.0", render=128, gpu_id=22471, unique_id=2939817382117601327, simd=80, caches=118,
                    simd_id_base=2147487744, arrays=4, cu_per_array=10, gfx=100301, device=0x73DF, clk=2725, fw=120,
                    capability=0x2A0080, sdma_fw=76, name="navi22", heap=1, vram=12868124672, mem_width=192,
                    mem_clk=1000)])
    render = 110
    etc_users(t, ["sam:x:1000:1000:Sam,,,:/home/sam:/bin/bash"],
              ubuntu_groups("sam", render, DESKTOP_GROUPS, extra=()))
    apt_ubuntu(t, "jammy")
    apt_rocm(t, "6.3.3", "jammy")
    rocm_install(t, "6.3.3", "74")
    hwe = dpkg_stanza("linux-generic-hwe-22.04", "6.5.0.44.44~22.04.1", "Ubuntu Kernel Team <kernel-team@lists.ubuntu.com>",
                      "Complete Generic Linux kernel and headers", section="kernel", installed_size=18,
                      source="linux-meta-hwe-6.5")
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("jammy") + [hwe] +
                                              rocm_packages("6.3.3", "74", "jammy", hip="6.3.42134", rocr="1.14.0")))
    system_python(t, 10)
    torch_install(t, "/home/sam/.local/lib/python3.10/site-packages", "2.5.1+rocm6.2", hip="6.2.41133-dd7f95766")
    # ollama's bundled rocBLAS has kernels for gfx1030 but not for this card's gfx1031, and its service does not
    # get the override sam exports in his shell.
    ollama_install(t, ["gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx906", "gfx908", "gfx90a", "gfx942"])
    sidecar(t, {"name": "sam", "uid": 1000, "gid": 1000, "groups": [1000, 4, 24, 27, 30, 44, 46, 100, 110, 114]},
            {"PATH": "/home/sam/.local/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:"
                     "/usr/local/games:/snap/bin:/opt/rocm/bin",
             "LD_LIBRARY_PATH": "/opt/rocm/lib:/usr/local/lib", "HSA_OVERRIDE_GFX_VERSION": "10.3.0",
             "HOME": "/home/sam", "USER": "sam", "LOGNAME": "sam"},
            {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/card0": cdev("0660", 0, 44)}, DMESG_DENIED, "2025-03-02T20:41:07Z")
    return ("Synthetic: Ubuntu 22.04 with the 6.5 HWE kernel on a Ryzen 5 5600X / B550 board, Radeon RX 6700 XT "
            "(Navi 22, gfx1031: not on ROCm's list) driven by the in-kernel amdgpu, ROCm 6.3.3 from repo.radeon.com, "
            "HSA_OVERRIDE_GFX_VERSION=10.3.0 exported, torch 2.5.1+rocm6.2 installed with pip --user. Run by sam "
            "(in render and video) without sudo: config space is the 64 bytes users may read, dmesg is refused. ollama "
            "installed by its script: its bundled ROCm in /usr/local/lib/ollama/rocm has rocBLAS kernels for gfx1030, "
            "gfx110x and Instinct targets, not gfx1031, and its systemd service sets no override (the exported one "
            "does not reach it).", {
        "/source/recording": "snapshot",
        "/host/cpu_count": 12,
        "/host/memory_bytes": 32780340 * 1024,
        "/distro/version_id": "22.04",
        "/distro/codename": "jammy",
        "/kernel/release": "6.5.0-44-generic",
        "/kernel/version": [6, 5, 0],
        "/kernel/hwe": True,
        "/platform/kind": "bare_metal",
        "/pci/devices/5/address": "0000:0c:00.0",
        "/pci/devices/5/device_id": "0x73df",
        "/pci/devices/5/driver": "amdgpu",
        "/pci/devices/5/boot_vga": True,
        "/pci/devices/5/parents": ["0000:0b:00.0", "0000:0a:00.0", "0000:00:03.1"],
        "/pci/gpus/0/address": "0000:0c:00.0",
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/version": None,
        "/amdgpu/blacklisted/value": False,
        "/amdgpu/dkms/installed": [],
        "/kfd/nodes/1/name": "navi22",
        "/kfd/nodes/1/gfx_target_version": 100301,
        "/kfd/nodes/1/gfx": "gfx1031",
        "/kfd/nodes/1/location_id": 3072,
        "/kfd/nodes/1/pci_address": "0000:0c:00.0",
        "/kfd/nodes/1/vram_bytes": 12868124672,
        "/kfd/gpus/0/gfx": "gfx1031",
        "/kfd/gpus/0/render_node": "/dev/dri/renderD128",
        "/kfd/gpus/0/matched_pci": True,
        "/access/user/name": "sam",
        "/access/user/via_sudo": False,
        "/access/process_groups": ["adm", "cdrom", "dip", "lpadmin", "plugdev", "render", "sam", "sudo", "users",
                                   "video"],
        "/access/render_group": {"exists": True, "gid": 110},
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/can_open_rw": True,
        "/firmware/secure_boot": True,
        "/firmware/lockdown": "integrity",
        "/firmware/gpus/0/atomics/routed_to_root": "<unknown>",
        "/firmware/gpus/0/bar/largest_bytes": 16 * GiB,
        "/firmware/gpus/0/bar/large_bar": True,
        "/rocm/default": "/opt/rocm-6.3.3",
        "/rocm/installs/1/version": "6.3.3-74",
        "/rocm/apt_sources/1/uri": "https://repo.radeon.com/rocm/apt/6.3.3",
        "/rocm/apt_sources/1/suite": "jammy",
        "/python/interpreters/0/path": "/usr/bin/python3",
        "/python/interpreters/0/kind": "system",
        "/python/interpreters/0/found_by": "PATH",
        "/python/torch/0/site_packages": "/home/sam/.local/lib/python3.10/site-packages",
        "/python/torch/0/version": "2.5.1+rocm6.2",
        "/python/torch/0/hip": "6.2.41133-dd7f95766",
        "/python/torch/0/build": "rocm",
        "/python/torch/0/python_version": "3.10",
        "/env/HSA_OVERRIDE_GFX_VERSION": "10.3.0",
        "/env/HIP_VISIBLE_DEVICES": None,
        "/env/path_rocm_entries": ["/opt/rocm/bin"],
        "/env/ld_library_path_rocm_entries": ["/opt/rocm/lib"],
        "/kernel_log": "<unknown>",
        "/rocm/bundles/0/app": "ollama",
        "/rocm/bundles/0/path": "/usr/local/lib/ollama/rocm",
        "/rocm/bundles/0/rocblas_gfx": ["gfx1030", "gfx1100", "gfx1101", "gfx1102", "gfx906", "gfx908", "gfx90a",
                                        "gfx942"],
        "/rocm/bundles/0/service_hsa_override": None,
    }, None)


PHOENIX_7840HS = dict(model_name="AMD Ryzen 7 7840HS w/ Radeon 780M Graphics", family=25, model=116, stepping=1,
                      microcode="0xa704104", cores=8, threads=16, mhz=1600.0, cache_kb=1024, flags=ZEN4_FLAGS,
                      bugs=ZEN4_BUGS, bogomips=7585.34, tlb="3584 4K pages",
                      addr_sizes="48 bits physical, 48 bits virtual", pm=ZEN_PM)


def laptop_780m_dgpu(t):
    release = "6.8.0-45-generic"
    os_release(t, "24.04")
    kernel_files(t, release, NOBLE_KERNEL,
                 "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=e3a1c5d7-9b2f-4c8e-a6d4-1f3b5c7e9a20 ro quiet "
                 "splash amdgpu.sg_display=0 vt.handoff=7")
    t.write("/proc/cpuinfo", cpuinfo(**PHOENIX_7840HS))
    t.write("/proc/meminfo", meminfo(31952024))
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + COMMON_MODULES))
    amdgpu_module(t)
    modprobe_d(t)
    kernel_headers(t, release)
    dmi(t, "Framework", "Laptop 16 (AMD Ryzen 7040 Series)", "FRANMZCP09", "03.03")
    firmware(t, secure_boot=True, lockdown="none [integrity] confidentiality")
    sub_dgpu, sub_igpu = (0xF111, 0x0009), (0xF111, 0x0006)
    devices = amd_host(0x14E8, 0x14E9, "0000:00:01.1", 0x14ED, 1, 3, 0x7800000000, 0x210000000, 0x90600000,
                       root_gen=(4, 8), root_max=(4, 8), io_base=0x2000) + navi_card(
        "0000:00:01.1", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0", "0000:03:00.1", 0x7480, 0xAB30, 0xC1,
        sub_dgpu, dict(vram=0x7800000000, bar0=8 * GiB, pref_window=0x210000000, mmio=0x90600000, io=0x2000),
        up_link=(4, 8), card=1, render=128, gpu_cls=0x038000, iommu=(12, 13)) + [
        Pci("0000:00:08.1", 0x1022, 0x14EB, 0x060400, driver="pcieport",
            pcie=dict(type="root", max=(4, 16), cur=(4, 16), routing=True, c32=True, c64=True, c128=True),
            windows=[(0x1000, 0x1000, WIN_IO), (0x90000000, 0x500000, WIN_MEM), (0x7C00000000, 0x10200000, WIN_PREF)],
            bus_range=(0xC5, 0xC5), iommu_group=20),
        Pci("0000:c5:00.0", 0x1002, 0x15BF, 0x030000, parent="0000:00:08.1", rev=0xC1, sub=sub_igpu,
            driver="amdgpu", pcie=dict(type="legacy", max=(4, 16), cur=(4, 16), req=True), multifunction=True,
            bars=[(0, 0x7C00000000, 256 * MiB, MEM64_PREF), (2, 0x7C10000000, 2 * MiB, MEM64_PREF),
                  (4, 0x1000, 0x100, IO), (5, 0x90400000, 512 * 1024, MEM32)],
            iommu_group=21, drm=dict(card="card2", render="renderD129", boot_vga=True)),
        Pci("0000:c5:00.1", 0x1002, 0x1640, 0x040300, parent="0000:00:08.1", sub=sub_igpu, driver="snd_hda_intel",
            pcie=dict(type="legacy", max=(4, 16), cur=(4, 16)), bars=[(0, 0x90480000, 0x4000, MEM32)],
            iommu_group=22),
    ]
    paths = write_pci(t, devices, 4096, iommu_type="DMA-FQ")
    amd_iommu_unit(t, paths["0000:00:00.2"])
    write_kfd(t, [dict(cores=16, clk=5137, mem=31952024 * 1024, mem_width=64, mem_clk=2800)], [
        dict(pci="0000:03:00.0", render=128, gpu_id=61322, unique_id=4388129010987654321, simd=64, caches=70,
             simd_id_base=2147487744, arrays=4, cu_per_array=8, gfx=110002, device=0x7480, clk=2208, fw=2140,
             capability=671588992, sdma_fw=19, name="ip discovery", heap=1, vram=8573157376, mem_width=128,
             mem_clk=2250),
        dict(pci="0000:c5:00.0", render=129, gpu_id=2617, unique_id=0, simd=24, caches=38, simd_id_base=2147488768,
             arrays=2, cu_per_array=6, gfx=110003, device=0x15BF, clk=2700, fw=2140, capability=671588992,
             sdma_fw=14, name="ip discovery", heap=1, vram=512 * MiB, mem_width=64, mem_clk=2800, sdma=1),
    ])
    render = 992
    etc_users(t, ["maya:x:1000:1000:Maya,,,:/home/maya:/bin/bash"], ubuntu_groups("maya", render, DESKTOP_GROUPS))
    apt_ubuntu(t, "noble")
    apt_rocm(t, "6.4.1", "noble")
    rocm_install(t, "6.4.1", "83")
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("noble") + rocm_packages("6.4.1", "83", "noble")))
    system_python(t, 12)
    site = venv(t, "/home/maya/venvs/torch", 12, 3)
    torch_install(t, site, "2.7.1+rocm6.3", hip="6.3.42131-fa1d09cbd")
    lines = healthy_dmesg(release, "0000:03:00.0", "0x1002:0x7480 0xF111:0x0009", 8176, "0x7480:0x1002") + [
        "[    4.331207] amdgpu 0000:c5:00.0: enabling device (0006 -> 0007)",
        "[    4.331562] [drm] initializing kernel modesetting (IP DISCOVERY 0x1002:0x15BF 0xF111:0x0006 0xC1).",
        "[    4.402275] [drm] amdgpu: 512M of VRAM memory ready",
        "[    4.402281] [drm] amdgpu: 15602M of GTT memory ready.",
        "[    4.893316] amdgpu: Virtual CRAT table created for GPU",
        "[    4.893401] amdgpu: Topology: Add dGPU node [0x15bf:0x1002]",
        "[    4.893408] kfd kfd: amdgpu: added device 1002:15bf",
        "[    4.951003] [drm] Initialized amdgpu 3.57.0 20150101 for 0000:c5:00.0 on minor 2",
        # Two hours in, the 780M's MES firmware stopped answering and amdgpu
        # reset the iGPU (the gfx1103 hang of ROCm/legacy-rocm-build#6386);
        # the desktop's next submissions were refused with the lost context.
        "[ 8312.524118] amdgpu 0000:c5:00.0: amdgpu: MES failed to respond to msg=REMOVE_QUEUE",
        "[ 8312.524131] amdgpu 0000:c5:00.0: amdgpu: failed to remove hardware queue from MES, doorbell=0x1002",
        "[ 8314.016552] amdgpu 0000:c5:00.0: amdgpu: GPU reset begin!",
        "[ 8314.398120] amdgpu 0000:c5:00.0: amdgpu: GPU reset(1) succeeded!",
        "[ 8314.402779] [drm:amdgpu_cs_ioctl [amdgpu]] *ERROR* Failed to initialize parser -125!",
    ]
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]}, sudo_env("maya"),
            {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/renderD129": cdev("0660", 0, render), "/dev/dri/card0": cdev("0660", 0, 44),
             "/dev/dri/card1": cdev("0660", 0, 44), "/dev/dri/card2": cdev("0660", 0, 44)},
            dmesg_ok(lines), "2025-07-08T07:55:31Z")
    t.sysfs_link("/sys/class/drm/card0", "/sys/devices/platform/simple-framebuffer.0/drm/card0")
    t.attr("/sys/devices/platform/simple-framebuffer.0/drm/card0/dev", "226:0")
    return ("Synthetic: Framework Laptop 16 (Ryzen 7 7840HS) with both a Radeon 780M iGPU (Phoenix, gfx1103, "
            "512 MiB carve-out, 0000:c5:00.0) and a Radeon RX 7700S dGPU (Navi 33, gfx1102, class 0x038000 so no "
            "boot_vga) at 0000:03:00.0; both in KFD (dGPU first, as amdgpu probed it), no "
            "HIP_VISIBLE_DEVICES/ROCR_VISIBLE_DEVICES, so a ROCm program sees two unlike GPUs. In-kernel amdgpu, "
            "ROCm 6.4.1, Secure Boot on. Recorded with sudo.", {
        "/source/recording": "snapshot",
        "/host/cpu_model": "AMD Ryzen 7 7840HS w/ Radeon 780M Graphics",
        "/kernel/cmdline/amdgpu": {"sg_display": "0"},
        "/platform/kind": "bare_metal",
        "/platform/dmi/sys_vendor": "Framework",
        "/pci/devices/3/address": "0000:00:08.1",
        "/pci/devices/4/address": "0000:01:00.0",
        "/pci/devices/4/link/current_width": 8,
        "/pci/devices/4/link/max_width": 16,
        "/pci/devices/6/address": "0000:03:00.0",
        "/pci/devices/6/class": "0x038000",
        "/pci/devices/6/boot_vga": None,
        "/pci/devices/6/link/current_width": 16,
        "/pci/devices/8/address": "0000:c5:00.0",
        "/pci/devices/8/device_id": "0x15bf",
        "/pci/devices/8/boot_vga": True,
        "/pci/devices/8/parents": ["0000:00:08.1"],
        "/pci/gpus/0/address": "0000:03:00.0",
        "/pci/gpus/0/boot_vga": None,
        "/pci/gpus/1/address": "0000:c5:00.0",
        "/pci/gpus/1/boot_vga": True,
        "/amdgpu/devices/0/address": "0000:03:00.0",
        "/amdgpu/devices/1/address": "0000:c5:00.0",
        "/amdgpu/devices/1/driver": "amdgpu",
        "/kfd/nodes/1/gfx": "gfx1102",
        "/kfd/nodes/1/pci_address": "0000:03:00.0",
        "/kfd/nodes/1/vram_bytes": 8573157376,
        "/kfd/nodes/2/gfx": "gfx1103",
        "/kfd/nodes/2/gfx_target_version": 110003,
        "/kfd/nodes/2/pci_address": "0000:c5:00.0",
        "/kfd/nodes/2/location_id": 50432,
        "/kfd/nodes/2/drm_render_minor": 129,
        "/kfd/nodes/2/vram_bytes": 536870912,
        "/kfd/gpus/0/node": 1,
        "/kfd/gpus/0/gfx": "gfx1102",
        "/kfd/gpus/0/render_node": "/dev/dri/renderD128",
        "/kfd/gpus/1/node": 2,
        "/kfd/gpus/1/gfx": "gfx1103",
        "/kfd/gpus/1/pci_address": "0000:c5:00.0",
        "/kfd/gpus/1/render_node": "/dev/dri/renderD129",
        "/kfd/gpus/1/matched_pci": True,
        "/access/user/target": "maya",
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/can_open_rw": True,
        "/access/nodes/1/path": "/dev/dri/renderD128",
        "/access/nodes/2/path": "/dev/dri/renderD129",
        "/firmware/secure_boot": True,
        "/firmware/lockdown": "integrity",
        "/firmware/gpus/0/address": "0000:03:00.0",
        "/firmware/gpus/0/atomics/routed_to_root": True,
        "/firmware/gpus/0/bar/large_bar": True,
        "/firmware/gpus/1/address": "0000:c5:00.0",
        "/firmware/gpus/1/atomics/routed_to_root": True,
        "/firmware/gpus/1/bar/largest_bytes": 256 * MiB,
        "/firmware/gpus/1/bar/vram_bytes": 536870912,
        "/firmware/gpus/1/bar/large_bar": False,
        "/python/torch/0/version": "2.7.1+rocm6.3",
        "/python/torch/0/build": "rocm",
        "/env/HIP_VISIBLE_DEVICES": None,
        "/env/ROCR_VISIBLE_DEVICES": None,
        "/env/CUDA_VISIBLE_DEVICES": None,
        "/env/HSA_OVERRIDE_GFX_VERSION": None,
        "/kernel_log/readable": True,
        "/kernel/cmdline/gpu_params": ["amdgpu.sg_display=0"],
        "/kernel_log/lines/29": "[ 8314.402779] [drm:amdgpu_cs_ioctl [amdgpu]] *ERROR* Failed to initialize parser -125!",
    }, ["/home/maya/venvs/torch/bin/python3"])


GENOA_9124 = dict(model_name="AMD EPYC 9124 16-Core Processor", family=25, model=17, stepping=1,
                  microcode="0xa10113e", cores=16, threads=64, mhz=3000.0, cache_kb=1024, flags=ZEN4_FLAGS,
                  bugs=ZEN4_BUGS, bogomips=5991.72, tlb="3584 4K pages",
                  addr_sizes="52 bits physical, 57 bits virtual", pm=ZEN_PM, sockets=2)


def mi300x_gpu(root, up, down, gpu, bar_base, mmio, numa, render, card, groups):
    sec = int(gpu[5:7], 16)
    return [
        Pci(root, 0x1022, 0x14AB, 0x060400, driver="pcieport", numa=numa,
            pcie=dict(type="root", max=(5, 16), cur=(5, 16), routing=True, c32=True, c64=True, c128=True),
            windows=[(0, 0, 0), (mmio, 0x800000, WIN_MEM), (bar_base, 0x4000400000, WIN_PREF)],
            bus_range=(sec - 2, sec), iommu_group=groups[0]),
        Pci(up, 0x1000, 0xC030, 0x060400, parent=root, rev=0xB0, sub=(0x1000, 0x100B), driver="pcieport", numa=numa,
            pcie=dict(type="upstream", max=(5, 16), cur=(5, 16), routing=True),
            windows=[(0, 0, 0), (mmio, 0x800000, WIN_MEM), (bar_base, 0x4000400000, WIN_PREF)],
            bus_range=(sec - 1, sec), iommu_group=groups[1]),
        Pci(down, 0x1000, 0xC030, 0x060400, parent=up, rev=0xB0, sub=(0x1000, 0x100B), driver="pcieport", numa=numa,
            pcie=dict(type="downstream", max=(5, 16), cur=(5, 16), routing=True),
            windows=[(0, 0, 0), (mmio, 0x800000, WIN_MEM), (bar_base, 0x4000400000, WIN_PREF)],
            bus_range=(sec, sec), iommu_group=groups[1]),
        Pci(gpu, 0x1002, 0x74A1, 0x120000, parent=down, sub=(0x1002, 0x74A1), driver="amdgpu", numa=numa,
            pcie=dict(type="endpoint", max=(5, 16), cur=(5, 16), req=True),
            bars=[(0, bar_base, 256 * GiB, MEM64_PREF), (2, bar_base + 256 * GiB, 2 * MiB, MEM64_PREF),
                  (5, mmio, 512 * 1024, MEM32), (6, mmio + 512 * 1024, 128 * 1024, ROM)],
            iommu_group=groups[2], drm=dict(card="card%d" % card, render="renderD%d" % render)),
    ]


def mi300x_container(t):
    release = "5.15.0-119-generic"
    os_release(t, "22.04")
    kernel_files(t, release,
                 "Linux version 5.15.0-119-generic (buildd@lcy02-amd64-075) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) "
                 "11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024",
                 "BOOT_IMAGE=/vmlinuz-5.15.0-119-generic root=UUID=5a8d2e41-7c3b-4f90-b1e6-93d0c7a4f218 ro "
                 "pci=realloc=off amd_iommu=on iommu=pt console=ttyS0,115200n8", has_arch_file=False)
    t.write("/.dockerenv", "")
    t.write("/proc/1/cgroup", "0::/\n")
    uid_map(t, INITIAL_USER_NS)  # Docker without userns-remap: root in here is the host's root
    t.write("/proc/cpuinfo", cpuinfo(**GENOA_9124))
    t.write("/proc/meminfo", meminfo(792351488))
    dkms_stack = [("amdgpu", 17022976, 16, [], "OE"), ("amddrm_ttm_helper", 12288, 1, ["amdgpu"], "OE"),
                  ("amdttm", 98304, 2, ["amdgpu", "amddrm_ttm_helper"], "OE"),
                  ("amddrm_buddy", 20480, 1, ["amdgpu"], "OE"), ("amdxcp", 16384, 1, ["amdgpu"], "OE"),
                  ("amd_sched", 53248, 1, ["amdgpu"], "OE"), ("amdkcl", 32768, 3, ["amdgpu", "amdttm", "amd_sched"], "OE"),
                  ("drm_kms_helper", 311296, 4, ["ast", "amdgpu"], None), ("ast", 69632, 0, [], None)]
    t.write("/proc/modules", proc_modules(dkms_stack + COMMON_MODULES[2:4]))
    amdgpu_module(t, "6.10.5")
    dmi(t, "Supermicro", "AS -8125GS-TNMR2", "H13DSG-OM", "1.6")
    # Docker masks /sys/firmware and mounts no securityfs: EFI and lockdown are not visible in here.
    firmware(t, secure_boot=None, lockdown=None)
    devices = [
        Pci("0000:00:00.0", 0x1022, 0x14A4, 0x060000, sub=(0x1022, 0x14A4), numa=0),
        Pci("0000:00:00.2", 0x1022, 0x149E, 0x080600, sub=(0x1022, 0x149E), numa=0),
    ] + mi300x_gpu("0000:00:01.1", "0000:01:00.0", "0000:02:00.0", "0000:03:00.0", 0x20000000000, 0xB0000000, 0,
                   128, 1, (3, 4, 5)) + mi300x_gpu(
        "0000:80:01.1", "0000:81:00.0", "0000:82:00.0", "0000:83:00.0", 0x30000000000, 0xE0000000, 1, 136, 2,
        (40, 41, 42)) + [
        Pci("0000:c0:05.2", 0x1022, 0x14AA, 0x060400, driver="pcieport", numa=1,
            pcie=dict(type="root", max=(3, 1), cur=(2, 1), routing=True, c32=True, c64=True),
            windows=[(0x3000, 0x1000, WIN_IO), (0xF4000000, 0x3000000, WIN_MEM)], bus_range=(0xC1, 0xC2),
            iommu_group=60),
        Pci("0000:c1:00.0", 0x1A03, 0x1150, 0x060400, parent="0000:c0:05.2", rev=0x06, driver=None, numa=1,
            pcie=dict(type="pcie_to_pci", max=(2, 1), cur=(2, 1)),
            windows=[(0x3000, 0x1000, WIN_IO), (0xF4000000, 0x3000000, WIN_MEM)], bus_range=(0xC2, 0xC2),
            iommu_group=60),
        Pci("0000:c2:00.0", 0x1A03, 0x2000, 0x030000, parent="0000:c1:00.0", rev=0x52, sub=(0x15D9, 0x1D33),
            driver="ast", numa=1, boot_vga=True,
            bars=[(0, 0xF4000000, 32 * MiB, 0x40200), (1, 0xF6000000, 256 * 1024, MEM32), (2, 0x3000, 0x80, IO)],
            iommu_group=60),
    ]
    paths = write_pci(t, devices, 64, iommu_type="identity")
    amd_iommu_unit(t, paths["0000:00:00.2"])
    mi = dict(simd=1216, caches=736, simd_id_base=2147487744, arrays=32, cu_per_array=10, gfx=90402, device=0x74A1,
              clk=2100, fw=177, capability=0x3AF6A280, sdma_fw=20, name="ip discovery", heap=1, vram=206141652992,
              mem_width=8192, mem_clk=1300, wave=64, simd_per_cu=4, waves=8, gws=0, xcc=8, sdma=2, xgmi_sdma=14,
              hive=6541178281234567890, p2p=1)
    write_kfd(t, [dict(cores=32, clk=3711, mem=396175744 * 1024, mem_width=64, mem_clk=4800),
                  dict(cores=32, clk=3711, mem=396175744 * 1024, mem_width=64, mem_clk=4800)],
              [dict(mi, pci="0000:03:00.0", render=128, gpu_id=51000, unique_id=8719345512040958474, numa=0),
               dict(mi, pci="0000:83:00.0", render=136, gpu_id=14873, unique_id=1429761209338874131, numa=1)])
    # ubuntu:22.04's /etc/group: video exists, render does not (the nodes carry the host's render gid, 110).
    t.write("/etc/passwd", "root:x:0:0:root:/root:/bin/bash\ndaemon:x:1:1:daemon:/usr/sbin:/usr/sbin/nologin\n"
                           "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin\n")
    t.write("/etc/group", "root:x:0:\ndaemon:x:1:\nadm:x:4:\ntty:x:5:\ndisk:x:6:\nvideo:x:44:\nplugdev:x:46:\n"
                          "staff:x:50:\nusers:x:100:\nnogroup:x:65534:\n")
    apt_ubuntu(t, "jammy")
    apt_rocm(t, "6.4.1", "jammy", amdgpu_repo=False)
    rocm_install(t, "6.4.1", "83")
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("jammy") + rocm_packages("6.4.1", "83", "jammy")))
    system_python(t, 10)
    t.link("/opt/venv/bin/python", "python3")
    t.link("/opt/venv/bin/python3", "/usr/bin/python3")
    t.write("/opt/venv/pyvenv.cfg", "home = /usr/bin\ninclude-system-site-packages = false\nversion = 3.10.12\n")
    torch_install(t, "/opt/venv/lib/python3.10/site-packages", "2.6.0+rocm6.4.1.git1ded221d",
                  hip="6.4.43483-a187df25c")
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]},
            {"PATH": "/opt/venv/bin:/opt/rocm/llvm/bin:/opt/rocm/bin:/usr/local/sbin:/usr/local/bin:/usr/sbin:"
                     "/usr/bin:/sbin:/bin",
             "HOME": "/root", "ROCM_PATH": "/opt/rocm", "VIRTUAL_ENV": "/opt/venv", "PYTORCH_ROCM_ARCH": "gfx942"},
            {"/dev/kfd": cdev("0660", 0, 110), "/dev/dri/renderD128": cdev("0660", 0, 110),
             "/dev/dri/renderD136": cdev("0660", 0, 110), "/dev/dri/card1": cdev("0660", 0, 44),
             "/dev/dri/card2": cdev("0660", 0, 44)}, DMESG_DENIED, "2025-05-14T03:17:52Z")
    return ("Synthetic: inside a Docker container (ubuntu 22.04 userland, ROCm 6.4.1 and torch in /opt/venv) on a "
            "two-socket EPYC 9124 server running Ubuntu 22.04's 5.15 kernel with amdgpu-dkms, booted with "
            "iommu=pt. Two AMD Instinct MI300X (gfx942, class 0x120000, Gen5 x16, one per socket) behind "
            "Broadcom switches, plus the BMC's ASPEED VGA. /dev/kfd and /dev/dri passed in with the host's "
            "render gid (110), which the container's /etc/group does not name. Root without CAP_SYS_ADMIN: "
            "64-byte config space, no dmesg; Docker masks /sys/firmware.", {
        "/source/recording": "snapshot",
        "/host/arch": "x86_64",
        "/host/cpu_count": 64,
        "/host/cpu_model": "AMD EPYC 9124 16-Core Processor",
        "/distro/version_id": "22.04",
        "/kernel/release": "5.15.0-119-generic",
        "/kernel/version": [5, 15, 0],
        "/kernel/hwe": False,
        "/kernel/cmdline/iommu": "pt",
        "/kernel/cmdline/amd_iommu": "on",
        "/platform/kind": "container",
        "/platform/in_container": True,
        "/platform/container_runtime": "docker",
        "/platform/in_vm": False,
        "/pci/devices/5/address": "0000:03:00.0",
        "/pci/devices/5/class": "0x120000",
        "/pci/devices/5/device_id": "0x74a1",
        "/pci/devices/5/numa_node": 0,
        "/pci/devices/5/boot_vga": None,
        "/pci/devices/5/link/current_speed": "32.0 GT/s PCIe",
        "/pci/devices/5/link/current_width": 16,
        "/pci/devices/9/address": "0000:83:00.0",
        "/pci/devices/9/numa_node": 1,
        "/pci/devices/12/address": "0000:c2:00.0",
        "/pci/devices/12/link": "<unknown>",
        "/pci/gpus/0/address": "0000:03:00.0",
        "/pci/gpus/0/vendor": "amd",
        "/pci/gpus/1/address": "0000:83:00.0",
        "/pci/gpus/2/address": "0000:c2:00.0",
        "/pci/gpus/2/vendor": "other",
        "/pci/gpus/2/driver": "ast",
        "/pci/gpus/2/boot_vga": True,
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/version": "6.10.5",
        "/amdgpu/devices/1/address": "0000:83:00.0",
        "/amdgpu/dkms/installed": [],
        "/kfd/device_node/present": True,
        "/kfd/nodes/0/cpu_cores_count": 32,
        "/kfd/nodes/1/cpu_cores_count": 32,
        "/kfd/nodes/2/gfx": "gfx942",
        "/kfd/nodes/2/gfx_target_version": 90402,
        "/kfd/nodes/2/simd_count": 1216,
        "/kfd/nodes/2/pci_address": "0000:03:00.0",
        "/kfd/nodes/2/vram_bytes": 206141652992,
        "/kfd/nodes/3/pci_address": "0000:83:00.0",
        "/kfd/nodes/3/location_id": 33536,
        "/kfd/nodes/3/drm_render_minor": 136,
        "/kfd/gpus/0/node": 2,
        "/kfd/gpus/1/node": 3,
        "/kfd/gpus/1/gfx": "gfx942",
        "/kfd/gpus/1/render_node": "/dev/dri/renderD136",
        "/kfd/gpus/1/matched_pci": True,
        "/access/user/name": "root",
        "/access/user/via_sudo": False,
        "/access/render_group": {"exists": False, "gid": None},
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/can_open_rw": True,
        "/access/nodes/0/group": "110",
        "/firmware/efi": "<unknown>",
        "/firmware/gpus/0/iommu_group_type": "identity",
        "/firmware/gpus/0/atomics/routed_to_root": "<unknown>",
        "/firmware/gpus/0/bar/largest_bytes": 256 * GiB,
        "/firmware/gpus/0/bar/large_bar": True,
        "/rocm/default": "/opt/rocm-6.4.1",
        "/rocm/apt_sources/0/file": "/etc/apt/sources.list.d/rocm.list",
        "/rocm/apt_sources/0/suite": "jammy",
        "/python/interpreters/0/path": "/opt/venv/bin/python3",
        "/python/interpreters/0/kind": "venv",
        "/python/interpreters/0/found_by": "VIRTUAL_ENV",  # VIRTUAL_ENV's bin/ is scanned before PATH
        "/python/torch/0/site_packages": "/opt/venv/lib/python3.10/site-packages",
        "/python/torch/0/version": "2.6.0+rocm6.4.1.git1ded221d",
        "/python/torch/0/build": "rocm",
        "/env/PYTORCH_ROCM_ARCH": "gfx942",
        "/env/ROCM_PATH": "/opt/rocm",
        "/env/HIP_VISIBLE_DEVICES": None,
        "/env/path_rocm_entries": ["/opt/rocm/llvm/bin", "/opt/rocm/bin"],
        "/kernel_log": "<unknown>",
    }, None)


VERMEER_5800X = dict(VERMEER_5600X, model_name="AMD Ryzen 7 5800X 8-Core Processor", stepping=2, cores=8, threads=16,
                     bogomips=7585.12)
CEZANNE_FREE_5600 = dict(VERMEER_5600X, model_name="AMD Ryzen 5 5600 6-Core Processor", mhz=3500.0, bogomips=6987.38)


def desktop_amdgpu_not_loaded(t):
    release = "6.8.0-45-generic"
    os_release(t, "24.04")
    kernel_files(t, release, NOBLE_KERNEL, NOBLE_CMDLINE)
    t.write("/proc/cpuinfo", cpuinfo(**VERMEER_5800X))
    t.write("/proc/meminfo", meminfo(32780340))
    t.write("/proc/modules", proc_modules(COMMON_MODULES))
    modprobe_d(t, {"/etc/modprobe.d/blacklist-amdgpu.conf":
                   "# keep the card dark until the new PSU is in\nblacklist amdgpu\n"})
    kernel_headers(t, release)
    dmi(t, "Micro-Star International Co., Ltd.", "MS-7C56", "B550-A PRO (MS-7C56)", "A.G0")
    firmware(t, secure_boot=False)
    devices = amd_host(0x1480, 0x1481, "0000:00:03.1", 0x1483, 0x0D, 0x0F, 0xD0000000, 0x10200000, 0xFC900000,
                       io_base=0xF000) + navi_card(
        "0000:00:03.1", "0000:0d:00.0", "0000:0e:00.0", "0000:0f:00.0", "0000:0f:00.1", 0x73BF, 0xAB28, 0xC3,
        (0x1002, 0x0E3A), dict(vram=0xD0000000, bar0=256 * MiB, pref_window=0x10200000, mmio=0xFC900000, io=0xF000,
                               driver=None, req=False))
    for d in devices:  # firmware's framebuffer is on this card
        if d.addr == "0000:0f:00.0":
            d.boot_vga = True
    paths = write_pci(t, devices, 4096, iommu_type="DMA-FQ")
    amd_iommu_unit(t, paths["0000:00:00.2"])
    t.sysfs_link("/sys/class/drm/card0", "/sys/devices/platform/simple-framebuffer.0/drm/card0")
    t.attr("/sys/devices/platform/simple-framebuffer.0/drm/card0/dev", "226:0")
    etc_users(t, ["lee:x:1000:1000:Lee,,,:/home/lee:/bin/bash"], ubuntu_groups("lee", 992, DESKTOP_GROUPS))
    apt_ubuntu(t, "noble")
    deb_rocm = "Debian ROCm Team <debian-ai@lists.debian.org>"
    distro_rocm = [dpkg_stanza(n, v, UBUNTU_MAINT, d, section="libs" if n.startswith("lib") else "devel",
                               installed_size=sz, source=src)
                   for n, v, d, sz, src in (
                       ("libamdhip64-5", "5.7.1-3", "Heterogeneous Interface for Portability - AMD GPUs", 26700,
                        "rocm-hipamd"),
                       ("rocminfo", "5.7.1-3build1", "ROCm Application for Reporting System Info", 90, None))]
    distro_rocm = [st.replace("Architecture: amd64\n", "Architecture: amd64\nOriginal-Maintainer: %s\n" % deb_rocm)
                   for st in distro_rocm]
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("noble") + distro_rocm))
    system_python(t, 12)
    lines = [
        "[    0.000000] Linux version %s" % NOBLE_KERNEL[len("Linux version "):],
        "[    0.412077] pci 0000:0f:00.0: [1002:73bf] type 00 class 0x030000 PCIe Legacy Endpoint",
        "[    0.412146] pci 0000:0f:00.0: BAR 0 [mem 0xd0000000-0xdfffffff 64bit pref]",
        "[    0.412421] pci 0000:0f:00.0: vgaarb: setting as boot VGA device",
        "[    0.615842] AMD-Vi: Interrupt remapping enabled",
        "[    1.932115] [drm] Initialized simpledrm 1.0.0 20200625 for simple-framebuffer.0 on minor 0",
    ]
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]}, sudo_env("lee"),
            {"/dev/dri/card0": cdev("0660", 0, 44)}, dmesg_ok(lines), "2025-04-11T16:29:03Z")
    return ("Synthetic: Ubuntu 24.04 desktop (Ryzen 7 5800X, B550) with a Radeon RX 6800 (Navi 21, gfx1030) on PCI "
            "and no driver bound: /etc/modprobe.d/blacklist-amdgpu.conf line 2 blacklists amdgpu. No amdgpu in "
            "/proc/modules, no /sys/module/amdgpu, no /dev/kfd, no KFD topology, no render node (only simpledrm's "
            "card0). ROCm is not installed; only Ubuntu's own libamdhip64-5 and rocminfo 5.7.1 are. Recorded with "
            "sudo.", {
        "/source/recording": "snapshot",
        "/host/cpu_count": 16,
        "/kernel/cmdline/modprobe_blacklist": [],
        "/platform/kind": "bare_metal",
        "/pci/devices/5/address": "0000:0f:00.0",
        "/pci/devices/5/device_id": "0x73bf",
        "/pci/devices/5/driver": None,
        "/pci/devices/5/boot_vga": True,
        "/pci/devices/6/address": "0000:0f:00.1",
        "/pci/devices/6/driver": "snd_hda_intel",
        "/pci/gpus/0/address": "0000:0f:00.0",
        "/pci/gpus/0/driver": None,
        "/amdgpu/module/loaded": False,
        "/amdgpu/blacklisted/value": True,
        "/amdgpu/blacklisted/sources": ["/etc/modprobe.d/blacklist-amdgpu.conf:2"],
        "/amdgpu/devices/0/address": "0000:0f:00.0",
        "/amdgpu/devices/0/driver": None,
        "/amdgpu/radeon_bound": [],
        "/amdgpu/dkms/installed": [],
        "/kfd/device_node/present": False,
        "/access/user/target": "lee",
        "/access/render_group": {"exists": True, "gid": 992},
        "/firmware/gpus/0/address": "0000:0f:00.0",
        "/firmware/gpus/0/bar/largest_bytes": 256 * MiB,
        "/rocm/installs": [],
        "/rocm/default": None,
        "/rocm/packages/0/name": "libamdhip64-5",
        "/rocm/packages/0/origin": "distro",
        "/rocm/packages/1/name": "rocminfo",
        "/rocm/packages/1/version": "5.7.1-3build1",
        "/rocm/packages/1/origin": "distro",
        "/rocm/apt_sources": [],
        "/kernel_log/readable": True,
    }, None)


def chipset_bridge_no_atomics(t):
    release = "6.8.0-45-generic"
    os_release(t, "24.04")
    kernel_files(t, release, NOBLE_KERNEL,
                 "BOOT_IMAGE=/boot/vmlinuz-6.8.0-45-generic root=UUID=2d6f8a0c-3e5b-4c7d-9f1a-6b8c0d2e4f61 ro quiet "
                 "splash amdgpu.ppfeaturemask=0xffffffff vt.handoff=7")
    t.write("/proc/cpuinfo", cpuinfo(**CEZANNE_FREE_5600))
    t.write("/proc/meminfo", meminfo(16308412))
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + COMMON_MODULES))
    amdgpu_module(t)
    modprobe_d(t, {"/etc/modprobe.d/amdgpu-tuning.conf":
                   "# blacklist amdgpu   (was needed for the old R9 card)\noptions amdgpu runpm=0\n"})
    kernel_headers(t, release)
    dmi(t, "ASRock", "B550M Pro4", "B550M Pro4", "P3.10")
    firmware(t, secure_boot=False)
    gpu_bars = dict(vram=0xD0000000, bar0=256 * MiB, pref_window=0x10200000, mmio=0xFC500000, io=0xE000, req=False)
    devices = amd_host(0x1480, 0x1481, "0000:00:01.2", 0x1483, 0x02, 0x0D, 0xD0000000, 0x10200000, 0xFC400000,
                       root_gen=(3, 4), root_max=(4, 4), io_base=0xE000, groups=(0, 1, 3)) + [
        # The B550 chipset's switch: no AtomicOp routing in DevCap2, so nothing below it reaches the root complex.
        Pci("0000:02:00.0", 0x1022, 0x43E9, 0x060400, parent="0000:00:01.2", rev=0x00, driver="pcieport",
            pcie=dict(type="upstream", max=(4, 4), cur=(3, 4), routing=False),
            windows=[(0xE000, 0x1000, WIN_IO), (0xFC400000, 0x300000, WIN_MEM), (0xD0000000, 0x10200000, WIN_PREF)],
            bus_range=(0x03, 0x0D), iommu_group=13),
        Pci("0000:03:09.0", 0x1022, 0x43EA, 0x060400, parent="0000:02:00.0", rev=0x00, driver="pcieport",
            pcie=dict(type="downstream", max=(3, 4), cur=(3, 4), routing=False),
            windows=[(0xE000, 0x1000, WIN_IO), (0xFC500000, 0x200000, WIN_MEM), (0xD0000000, 0x10200000, WIN_PREF)],
            bus_range=(0x0B, 0x0D), iommu_group=13),
    ] + navi_card("0000:03:09.0", "0000:0b:00.0", "0000:0c:00.0", "0000:0d:00.0", "0000:0d:00.1", 0x73FF, 0xAB28,
                  0xC7, (0x1849, 0x5218), gpu_bars, up_link=(3, 4), iommu=(13, 13))
    paths = write_pci(t, devices, 4096, iommu_type="DMA-FQ")
    amd_iommu_unit(t, paths["0000:00:00.2"])
    write_kfd(t, [dict(cores=12, clk=4468, mem=16308412 * 1024, mem_width=64, mem_clk=1600)],
              [dict(pci="0000:0d:00.0", render=128, gpu_id=40182, unique_id=0, simd=56, caches=82,
                    simd_id_base=2147487744, arrays=4, cu_per_array=8, gfx=100302, device=0x73FF, clk=2491, fw=120,
                    capability=0x2A0080, sdma_fw=76, name="navi23", heap=2, vram=8573157376, mem_width=128,
                    mem_clk=1000, sdma=2)])
    render = 992
    etc_users(t, ["jo:x:1000:1000:Jo,,,:/home/jo:/bin/bash"], ubuntu_groups("jo", render, DESKTOP_GROUPS))
    apt_ubuntu(t, "noble")
    apt_rocm(t, "6.4.1", "noble")
    rocm_install(t, "6.4.1", "83")
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("noble") + rocm_packages("6.4.1", "83", "noble")))
    system_python(t, 12)
    site = venv(t, "/home/jo/venv", 12, 3)
    torch_install(t, site, "2.8.0+rocm6.4", hip="6.4.43482-0f2d60242")
    lines = healthy_dmesg(release, "0000:0d:00.0", "0x1002:0x73FF 0x1849:0x5218", 8176, "0x73ff:0x1002",
                          extra=["[    4.216021] [drm] PCIE atomic ops is not supported"])
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]}, sudo_env("jo"),
            {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/card1": cdev("0660", 0, 44)}, dmesg_ok(lines), "2025-08-30T12:48:19Z")
    return ("Synthetic: Ubuntu 24.04, Ryzen 5 5600 on a B550M board, Radeon RX 6600 (Navi 23, gfx1032) in the "
            "second x16 slot, which is wired to the B550 chipset: 00:01.2 (CPU root port) -> 02:00.0 / 03:09.0 "
            "(chipset switch, DevCap2 without AtomicOp Routing) -> the card's own switch -> 0d:00.0. The slot runs "
            "at 8 GT/s x4 (the GPU itself reports its internal 16 GT/s x16 link), no resizable BAR (256 MiB of "
            "8 GiB), amdgpu reports PCIe atomics unsupported. A commented-out 'blacklist amdgpu' line must not "
            "count. Recorded with sudo.", {
        "/source/recording": "snapshot",
        "/kernel/cmdline/amdgpu": {"ppfeaturemask": "0xffffffff"},
        "/pci/devices/2/address": "0000:00:01.2",
        "/pci/devices/3/address": "0000:02:00.0",
        "/pci/devices/4/address": "0000:03:09.0",
        "/pci/devices/4/link/current_speed": "8.0 GT/s PCIe",
        "/pci/devices/4/link/current_width": 4,
        "/pci/devices/5/address": "0000:0b:00.0",
        "/pci/devices/5/link/current_speed": "8.0 GT/s PCIe",
        "/pci/devices/5/link/current_width": 4,
        "/pci/devices/5/link/max_speed": "16.0 GT/s PCIe",
        "/pci/devices/5/link/max_width": 16,
        "/pci/devices/7/address": "0000:0d:00.0",
        "/pci/devices/7/device_id": "0x73ff",
        "/pci/devices/7/link/current_speed": "16.0 GT/s PCIe",
        "/pci/devices/7/link/current_width": 16,
        "/pci/devices/7/parents": ["0000:0c:00.0", "0000:0b:00.0", "0000:03:09.0", "0000:02:00.0", "0000:00:01.2"],
        "/amdgpu/module/loaded": True,
        "/amdgpu/blacklisted/value": False,
        "/amdgpu/blacklisted/sources": [],
        "/kfd/nodes/1/gfx": "gfx1032",
        "/kfd/nodes/1/gfx_target_version": 100302,
        "/kfd/nodes/1/vram_bytes": 8573157376,
        "/kfd/gpus/0/pci_address": "0000:0d:00.0",
        "/kfd/gpus/0/matched_pci": True,
        "/firmware/gpus/0/address": "0000:0d:00.0",
        "/firmware/gpus/0/atomics/routed_to_root": False,
        "/firmware/gpus/0/atomics/path/0/address": "0000:0d:00.0",
        "/firmware/gpus/0/atomics/path/0/requester_enabled": False,
        "/firmware/gpus/0/atomics/path/1/address": "0000:0c:00.0",
        "/firmware/gpus/0/atomics/path/1/routing": True,
        "/firmware/gpus/0/atomics/path/2/address": "0000:0b:00.0",
        "/firmware/gpus/0/atomics/path/2/routing": True,
        "/firmware/gpus/0/atomics/path/3/address": "0000:03:09.0",
        "/firmware/gpus/0/atomics/path/3/routing": False,
        "/firmware/gpus/0/atomics/path/4/address": "0000:02:00.0",
        "/firmware/gpus/0/atomics/path/4/routing": False,
        "/firmware/gpus/0/atomics/path/5/address": "0000:00:01.2",
        "/firmware/gpus/0/atomics/path/5/completer_32": True,
        "/firmware/gpus/0/atomics/path/5/completer_64": True,
        "/firmware/gpus/0/bar/largest_bytes": 256 * MiB,
        "/firmware/gpus/0/bar/vram_bytes": 8573157376,
        "/firmware/gpus/0/bar/large_bar": False,
        "/python/torch/0/build": "rocm",
        "/kernel_log/readable": True,
    }, ["/home/jo/venv/bin/python"])


RESOLUTE_RELEASE = "7.0.0-15-generic"
RESOLUTE_KERNEL = ("Linux version 7.0.0-15-generic (buildd@lcy02-amd64-031) (x86_64-linux-gnu-gcc-15 (Ubuntu "
                   "15.2.0-4ubuntu4) 15.2.0, GNU ld (GNU Binutils for Ubuntu) 2.45) #15-Ubuntu SMP PREEMPT_DYNAMIC "
                   "Tue Apr 14 10:21:07 UTC 2026")
RESOLUTE_CMDLINE = ("BOOT_IMAGE=/boot/vmlinuz-7.0.0-15-generic root=UUID=0c6e2a41-9b7d-4f12-8e35-5a1d7c3b9f20 ro "
                    "quiet splash vt.handoff=7")


def ubuntu2604_rx7900xtx(t):
    """A fresh Ubuntu 26.04: the 7900 XTX desktop on the in-kernel amdgpu of the GA 7.0 kernel, nothing of ROCm."""
    release = RESOLUTE_RELEASE
    os_release(t, "26.04")
    kernel_files(t, release, RESOLUTE_KERNEL, RESOLUTE_CMDLINE)
    t.write("/proc/cpuinfo", cpuinfo(**RAPHAEL_7700X))
    t.write("/proc/meminfo", meminfo(65534068))
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + COMMON_MODULES))
    amdgpu_module(t)
    modprobe_d(t)
    kernel_headers(t, release)
    dmi(t, "ASUS", "System Product Name", "ROG STRIX X670E-E GAMING WIFI", "3205")
    firmware(t, secure_boot=False)
    rx7900xtx_desktop_gpu(t)
    render = 992
    # A fresh install: the desktop user is not in render yet.
    etc_users(t, [ALEX], ubuntu_groups("alex", render, tuple(g for g in DESKTOP_GROUPS if g != "render")))
    apt_ubuntu(t, "resolute")
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("resolute")))
    system_python(t, 14)
    nodes = {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/card1": cdev("0660", 0, 44)}
    dmesg = healthy_dmesg(release, "0000:03:00.0", "0x1002:0x744C 0x1DA2:0x471D", 24560, "0x744c:0x1002")
    dmesg[0] = "[    0.000000] " + RESOLUTE_KERNEL
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]}, sudo_env("alex"), nodes, dmesg_ok(dmesg),
            "2026-11-30T20:41:07Z")
    gpu = "/pci/devices/5"
    return ("Synthetic: a fresh Ubuntu 26.04 LTS desktop (Ryzen 7 7700X, X670E) with a Radeon RX 7900 XTX (Navi 31, "
            "gfx1100) on the in-kernel amdgpu of the GA 7.0 kernel (7.0.0-15-generic, its headers installed); no "
            "ROCm, no DKMS, no AMD repository, system Python 3.14 only; alex is not in render yet. Recorded with "
            "sudo (root, SUDO_USER=alex).", {
        "/source/recording": "snapshot",
        "/host/arch": "x86_64",
        "/distro/id": "ubuntu",
        "/distro/version_id": "26.04",
        "/distro/codename": "resolute",
        "/kernel/release": RESOLUTE_RELEASE,
        "/kernel/version": [7, 0, 0],
        "/kernel/flavour": "generic",
        "/kernel/hwe": False,
        "/platform/kind": "bare_metal",
        gpu + "/address": "0000:03:00.0",
        gpu + "/device_id": "0x744c",
        gpu + "/revision": "0xc8",
        gpu + "/driver": "amdgpu",
        "/pci/gpus/0/address": "0000:03:00.0",
        "/pci/gpus/0/vendor": "amd",
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/builtin": False,
        "/amdgpu/module/version": None,
        "/amdgpu/dkms/installed": [],
        "/kfd/device_node/present": True,
        "/kfd/gpus/0/gfx": "gfx1100",
        "/kfd/gpus/0/pci_address": "0000:03:00.0",
        "/access/user/via_sudo": True,
        "/access/user/sudo_user": "alex",
        "/access/user/target": "alex",
        "/access/target_groups": ["adm", "alex", "cdrom", "dip", "lpadmin", "plugdev", "sudo", "users", "video"],
        "/firmware/secure_boot": False,
        "/firmware/gpus/0/atomics/routed_to_root": True,
        "/firmware/gpus/0/bar/large_bar": True,
        "/rocm/default": None,
        "/rocm/installs": [],
        "/rocm/apt_sources": [],
        "/python/interpreters/0/path": "/usr/bin/python3",
        "/python/interpreters/0/version": "3.14",
        "/python/interpreters/0/kind": "system",
        "/python/torch": [],
        "/env/HSA_OVERRIDE_GFX_VERSION": None,
        "/kernel_log/readable": True,
    }, None)


# ----------------------------------------------------------------------------
# The "ROCm on Radeon" track: the 7900 XTX desktop on Ubuntu 22.04 with a
# release AMD supported for it only through its Radeon documents (5.7.1), or
# one of that track's own releases (6.1.3), installed as those documents say:
# amdgpu-install from repo.radeon.com with the in-kernel amdgpu (--no-dkms),
# recorded with sudo.

JAMMY_HWE_62_RELEASE = "6.2.0-39-generic"
JAMMY_HWE_62_KERNEL = ("Linux version 6.2.0-39-generic (buildd@lcy02-amd64-045) (x86_64-linux-gnu-gcc-11 (Ubuntu "
                       "11.4.0-1ubuntu1~22.04) 11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #40~22.04.1-Ubuntu SMP "
                       "PREEMPT_DYNAMIC Thu Nov 16 10:53:04 UTC 2")
JAMMY_HWE_65_RELEASE = "6.5.0-44-generic"


def rx7900xtx_jammy_radeon_track(t, *, rocm, build, hip, rocr, release, proc_version, created, torch=None):
    os_release(t, "22.04")
    kernel_files(t, release, proc_version,
                 "BOOT_IMAGE=/boot/vmlinuz-%s root=UUID=7b2f0c1e-4d53-4a8e-9a61-0f3c2d9e8b14 ro quiet splash "
                 "vt.handoff=7" % release)
    t.write("/proc/cpuinfo", cpuinfo(**RAPHAEL_7700X))
    t.write("/proc/meminfo", meminfo(65534068))
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + COMMON_MODULES))
    amdgpu_module(t)
    modprobe_d(t)
    kernel_headers(t, release)
    dmi(t, "ASUS", "System Product Name", "ROG STRIX X670E-E GAMING WIFI", "1813")
    firmware(t, secure_boot=False)
    rx7900xtx_desktop_gpu(t)
    render = 110
    etc_users(t, [ALEX], ubuntu_groups("alex", render, DESKTOP_GROUPS))
    apt_ubuntu(t, "jammy")
    apt_rocm(t, rocm, "jammy")
    rocm_install(t, rocm, build)
    hwe = dpkg_stanza("linux-generic-hwe-22.04", release.replace("-generic", "").replace("-", ".") + ".1~22.04.1",
                      "Ubuntu Kernel Team <kernel-team@lists.ubuntu.com>", "Complete Generic Linux kernel and headers",
                      section="kernel", installed_size=18)
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("jammy") + [hwe] +
                                              rocm_packages(rocm, build, "jammy", hip=hip, rocr=rocr)))
    system_python(t, 10)
    if torch:
        torch_install(t, venv(t, "/home/alex/venv", 10, 12), torch[0], hip=torch[1])
    nodes = {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/card1": cdev("0660", 0, 44)}
    dmesg = healthy_dmesg(release, "0000:03:00.0", "0x1002:0x744C 0x1DA2:0x471D", 24560, "0x744c:0x1002")
    dmesg[0] = "[    0.000000] " + proc_version
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]}, sudo_env("alex"), nodes, dmesg_ok(dmesg),
            created)


def radeon_track_facts(rocm, build, release, kernel_version):
    return {
        "/source/recording": "snapshot",
        "/distro/id": "ubuntu",
        "/distro/version_id": "22.04",
        "/distro/codename": "jammy",
        "/kernel/release": release,
        "/kernel/version": kernel_version,
        "/kernel/hwe": True,
        "/platform/kind": "bare_metal",
        "/pci/devices/5/address": "0000:03:00.0",
        "/pci/devices/5/device_id": "0x744c",
        "/pci/devices/5/revision": "0xc8",
        "/pci/gpus/0/address": "0000:03:00.0",
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/version": None,
        "/amdgpu/dkms/installed": [],
        "/kfd/gpus/0/gfx": "gfx1100",
        "/kfd/gpus/0/pci_address": "0000:03:00.0",
        "/access/user/via_sudo": True,
        "/access/user/target": "alex",
        "/rocm/default": "/opt/rocm-" + rocm,
        "/rocm/installs/0/path": "/opt/rocm",
        "/rocm/installs/1/version": "%s-%s" % (rocm, build),
        "/rocm/apt_sources/1/uri": "https://repo.radeon.com/rocm/apt/" + rocm,
        "/rocm/apt_sources/1/suite": "jammy",
        "/kernel_log/readable": True,
    }


def ubuntu2204_rx7900xtx_rocm571(t):
    rx7900xtx_jammy_radeon_track(t, rocm="5.7.1", build="98", hip="5.7.31921", rocr="1.1.0",
                                 release=JAMMY_HWE_62_RELEASE, proc_version=JAMMY_HWE_62_KERNEL,
                                 created="2023-11-02T19:20:44Z")
    return ("Synthetic: the 7900 XTX desktop (Ryzen 7 7700X, X670E) on Ubuntu 22.04 with the 6.2 HWE kernel "
            "(6.2.0-39-generic), the in-kernel amdgpu, ROCm 5.7.1 from repo.radeon.com with the 600 pin, no "
            "PyTorch. ROCm 5.7.1's own GPU table lists no RDNA3 card; AMD supported the RX 7900 XTX on it through "
            "its \"ROCm on Radeon\" documents. Recorded with sudo (root, SUDO_USER=alex).",
            radeon_track_facts("5.7.1", "98", JAMMY_HWE_62_RELEASE, [6, 2, 0]), None)


def ubuntu2204_rx7900xtx_rocm613(t):
    rx7900xtx_jammy_radeon_track(t, rocm="6.1.3", build="122", hip="6.1.40093", rocr="1.13.0",
                                 release=JAMMY_HWE_65_RELEASE, proc_version=JAMMY_HWE_KERNEL,
                                 created="2024-08-14T17:02:31Z",
                                 torch=("2.1.2+rocm6.1.3", "6.1.40093-bd86f1708"))
    facts = radeon_track_facts("6.1.3", "122", JAMMY_HWE_65_RELEASE, [6, 5, 0])
    facts.update({
        "/python/interpreters/0/path": "/home/alex/venv/bin/python",
        "/python/torch/0/version": "2.1.2+rocm6.1.3",
        "/python/torch/0/build": "rocm",
        "/python/torch/0/python_version": "3.10",
    })
    return ("Synthetic: the 7900 XTX desktop (Ryzen 7 7700X, X670E) on Ubuntu 22.04 with the 6.5 HWE kernel "
            "(6.5.0-44-generic), the in-kernel amdgpu, ROCm 6.1.3 (a release of AMD's \"ROCm on Radeon\" track "
            "only) from repo.radeon.com with the 600 pin, and AMD's Radeon wheel torch 2.1.2+rocm6.1.3 in ~/venv "
            "(Python 3.10). Recorded with sudo (root, SUDO_USER=alex).",
            facts, ["/home/alex/venv/bin/python"])


# ----------------------------------------------------------------------------
# Distributions other than Ubuntu: their os-release, kernel and package
# database (rpm's SQLite database, rpm -qa for an ndb one, pacman's desc
# files), on the 7900 XTX desktop's hardware with the in-kernel amdgpu.


def rpm_header(tags):
    """rpm's header blob (lib/header.c, headerExport without the magic): il, dl, il index entries of tag,
    type, offset, count, then the data. Strings are RPM_STRING_TYPE (6), integers RPM_INT32_TYPE (4),
    aligned to 4 as rpm aligns them."""
    index, data = b"", b""
    for tag, value in tags:
        if isinstance(value, int):
            while len(data) % 4:
                data += b"\0"
            index += struct.pack(">IIII", tag, 4, len(data), 1)
            data += struct.pack(">I", value)
        else:
            index += struct.pack(">IIII", tag, 6, len(data), 1)
            data += value.encode() + b"\0"
    return struct.pack(">II", len(tags), len(data)) + index + data


# The index tables rpm 4.16+ creates beside Packages (lib/backend/sqlite.c); rpm refuses a database
# without them, so the fixtures have them (empty: rocmdoc reads Packages only).
RPM_INDEX_TABLES = ("Name", "Basenames", "Group", "Requirename", "Providename", "Conflictname", "Obsoletename",
                    "Triggername", "Dirnames", "Installtid", "Sigmd5", "Sha1header", "Filetriggername",
                    "Transfiletriggername", "Recommendname", "Suggestname", "Supplementname", "Enhancename")


def rpmdb_sqlite(t, path, packages):
    """rpmdb.sqlite as rpm 4.16+ leaves it: WAL mode, checkpointed and closed (no -wal file). packages:
    (name, epoch or None, version, release, arch, vendor, packager). SQLite stamps its own version into the
    file's header (offset 96), so the committed files come back byte for byte only with the SQLite they
    were made with, 3.40.1 (sqlite3.sqlite_version); another writes its own version there, a difference
    in bytes rocmdoc never reads."""
    host = t.host(path)
    os.makedirs(os.path.dirname(host), exist_ok=True)
    db = sqlite3.connect(host)
    db.execute("PRAGMA page_size=1024")  # the smallest page SQLite allows keeps the fixture small
    db.execute("PRAGMA journal_mode=WAL")
    db.execute("CREATE TABLE Packages (hnum INTEGER PRIMARY KEY AUTOINCREMENT, blob BLOB NOT NULL)")
    for table in RPM_INDEX_TABLES:
        db.execute("CREATE TABLE '%s' (key 'TEXT' NOT NULL, hnum INTEGER NOT NULL, idx INTEGER NOT NULL, "
                   "FOREIGN KEY (hnum) REFERENCES 'Packages'(hnum))" % table)
    for name, epoch, version, release, arch, vendor, packager in packages:
        tags = [(1000, name), (1001, version), (1002, release)]
        if epoch is not None:
            tags.append((1003, epoch))
        tags += [(1011, vendor), (1015, packager), (1022, arch),
                 (1044, "%s-%s-%s.src.rpm" % (name, version, release))]
        db.execute("INSERT INTO Packages (blob) VALUES (?)", (rpm_header(tags),))
    db.commit()
    db.close()


def rpm_qa_output(packages):
    """What rocmdoc's rpm -qa query format prints (probe/package_list.cpp, rpm_query_argv)."""
    lines = []
    for name, epoch, version, release, arch, vendor, packager in packages:
        lines.append("\t".join([name, "(none)" if epoch is None else str(epoch), version, release, arch,
                                vendor or "(none)", packager or "(none)",
                                "%s-%s-%s.src.rpm" % (name, version, release)]))
    return "".join(l + "\n" for l in lines)


RPM_QA_KEY = ("rpm -qa --qf %{NAME}\\t%{EPOCH}\\t%{VERSION}\\t%{RELEASE}\\t%{ARCH}\\t%{VENDOR}\\t%{PACKAGER}"
              "\\t%{SOURCERPM}\\n")


def pacman_local(t, packages):
    """/var/lib/pacman/local as libalpm writes it: ALPM_DB_VERSION, and <name>-<version>/desc per package.
    packages: (name, version, base, packager)."""
    t.write("/var/lib/pacman/local/ALPM_DB_VERSION", "9\n")
    for name, version, base, packager in packages:
        t.write("/var/lib/pacman/local/%s-%s/desc" % (name, version),
                "%%NAME%%\n%s\n\n%%VERSION%%\n%s\n\n%%BASE%%\n%s\n\n%%DESC%%\n%s\n\n%%ARCH%%\nx86_64\n\n"
                "%%BUILDDATE%%\n1769768222\n\n%%INSTALLDATE%%\n1770100000\n\n%%PACKAGER%%\n%s\n\n"
                "%%SIZE%%\n1024\n\n%%VALIDATION%%\npgp\n\n" % (name, version, base, name + " (fixture)", packager))


def other_distro_desktop(t, *, os_release_text, release, proc_version, user, created, commands=None):
    """The 7900 XTX desktop with the kernel's own amdgpu, on another distribution."""
    t.write("/usr/lib/os-release", os_release_text)
    t.link("/etc/os-release", "../usr/lib/os-release")
    kernel_files(t, release, proc_version, "BOOT_IMAGE=(hd0,gpt2)/vmlinuz-%s root=UUID=7b2f0c1e-4d53-4a8e-9a61-"
                 "0f3c2d9e8b14 ro rhgb quiet" % release)
    t.write("/proc/cpuinfo", cpuinfo(**RAPHAEL_7700X))
    t.write("/proc/meminfo", meminfo(65534068))
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + COMMON_MODULES))
    amdgpu_module(t)
    dmi(t, "ASUS", "System Product Name", "ROG STRIX X670E-E GAMING WIFI", "2007")
    firmware(t, secure_boot=False)
    rx7900xtx_desktop_gpu(t)
    render = 105
    etc_users(t, ["%s:x:1000:1000:%s:/home/%s:/bin/bash" % (user, user.title(), user)],
              ubuntu_groups(user, render, ("video", "render", "users")))
    nodes = {"/dev/kfd": cdev("0666", 0, render), "/dev/dri/renderD128": cdev("0666", 0, render),
             "/dev/dri/card1": cdev("0660", 0, 44)}
    env = {"PATH": "/home/%s/.local/bin:/usr/local/bin:/usr/bin:/bin" % user, "HOME": "/home/" + user,
           "USER": user, "LOGNAME": user}
    recorded = dict(DMESG_DENIED)
    recorded.update(commands or {})
    sidecar(t, {"name": user, "uid": 1000, "gid": 1000, "groups": [1000, 44, render, 100]}, env, nodes, recorded,
            created)


def os_release_text(fields):
    return "".join('%s="%s"\n' % (k, v) if " " in v or k.endswith("NAME") else "%s=%s\n" % (k, v)
                   for k, v in fields)


def repo_file(t, path, sections):
    """A dnf or zypper .repo file: sections of (id, [(key, value)])."""
    t.write(path, "\n".join("[%s]\n%s" % (rid, "".join("%s=%s\n" % kv for kv in entries))
                           for rid, entries in sections))


def fedora_repos(t):
    """The two repositories fedora-repos installs, trimmed to the keys dnf needs."""
    for rid, name, repo in (("fedora", "Fedora $releasever - $basearch", "fedora"),
                            ("updates", "Fedora $releasever - $basearch - Updates", "updates-released-f")):
        repo_file(t, "/etc/yum.repos.d/%s.repo" % ("fedora" if rid == "fedora" else "fedora-updates"), [(rid, [
            ("name", name),
            ("metalink", "https://mirrors.fedoraproject.org/metalink?repo=%s$releasever&arch=$basearch"
             % (repo + "-" if rid == "fedora" else repo)),
            ("enabled", "1"), ("countme", "1"), ("type", "rpm"), ("gpgcheck", "1"),
            ("gpgkey", "file:///etc/pki/rpm-gpg/RPM-GPG-KEY-fedora-$releasever-$basearch")])])


def amd_rocm_repo(t, ver, el_major=9, enabled=True):
    """/etc/yum.repos.d/rocm.repo as AMD's RHEL instructions write it (native_repos_6x rocm_el in
    rules/matrix/rocm-releases.yaml)."""
    repo_file(t, "/etc/yum.repos.d/rocm.repo", [("ROCm-%s" % ver, [
        ("name", "ROCm%s" % ver), ("baseurl", "https://repo.radeon.com/rocm/el%d/%s/main" % (el_major, ver)),
        ("enabled", "1" if enabled else "0"), ("priority", "50"), ("gpgcheck", "1"),
        ("gpgkey", "https://repo.radeon.com/rocm/rocm.gpg.key")])])


FEDORA = "Fedora Project"


def fedora43_desktop(t, created):
    """The 7900 XTX desktop running Fedora 43 Workstation, its user dana."""
    release = "6.17.7-300.fc43.x86_64"
    other_distro_desktop(t, os_release_text=os_release_text([
        ("NAME", "Fedora Linux"), ("VERSION", "43 (Workstation Edition)"), ("RELEASE_TYPE", "stable"),
        ("ID", "fedora"), ("VERSION_ID", "43"), ("VERSION_CODENAME", ""),
        ("PRETTY_NAME", "Fedora Linux 43 (Workstation Edition)"), ("CPE_NAME", "cpe:/o:fedoraproject:fedora:43"),
        ("VARIANT_ID", "workstation")]),
        release=release, proc_version="Linux version %s (mockbuild@a1b2c3) (gcc (GCC) 15.2.1 20251022 (Red Hat "
        "15.2.1-3), GNU ld version 2.45-1.fc43) #1 SMP PREEMPT_DYNAMIC Mon Nov 10 16:20:54 UTC 2025" % release,
        user="dana", created=created)


def fedora43_distro_rocm(t):
    fedora43_desktop(t, "2026-11-30T10:00:00Z")
    rpmdb_sqlite(t, "/var/lib/rpm/rpmdb.sqlite", [
        ("bash", None, "5.3.0", "2.fc43", "x86_64", FEDORA, FEDORA),
        ("glibc", None, "2.42", "4.fc43", "x86_64", FEDORA, FEDORA),
        ("gpg-pubkey", None, "31645531", "66b6dccf", "(none)", "", ""),
        ("rocm-core", None, "6.4.2", "1.fc43", "x86_64", FEDORA, FEDORA),
        ("rocm-hip", None, "6.4.2", "3.fc43", "x86_64", FEDORA, FEDORA),
        ("rocm-runtime", None, "6.4.2", "1.fc43", "x86_64", FEDORA, FEDORA),
        ("rocminfo", None, "6.4.2", "1.fc43", "x86_64", FEDORA, FEDORA),
        ("rocm-smi", None, "6.4.2", "2.fc43", "x86_64", FEDORA, FEDORA),
        ("hipblas", None, "6.4.2", "1.fc43", "x86_64", FEDORA, FEDORA)])
    fedora_repos(t)
    return ("Synthetic: Fedora 43 Workstation on the 7900 XTX desktop of ubuntu2404-rx7900xtx, with Fedora's own "
            "ROCm 6.4.2 packages (rocm-hip, rocm-runtime, rocminfo, ...) from the rpm database "
            "(/var/lib/rpm/rpmdb.sqlite, made by this script with SQLite in rpm 4.16's layout) and the kernel's "
            "own amdgpu, and Fedora's own repositories in /etc/yum.repos.d. No AMD release lists Fedora.", {
        "/distro/id": "fedora",
        "/distro/version_id": "43",
        "/rocm/package_manager": "rpm",
        "/rocm/packages/0/name": "hipblas",
        "/rocm/packages/0/origin": "distro",
        "/rocm/packages/2/name": "rocm-hip",
        "/rocm/packages/2/version": "6.4.2-3.fc43",
        "/rocm/packages/2/source": "rocm-hip",
        "/rocm/packages/2/maintainer": FEDORA,
        "/rocm/distro_release": {"release": "6.4.2", "package": "rocm-hip", "version": "6.4.2-3.fc43"},
        "/rocm/packages_unreadable/count": 0,
        "/rocm/installs": [],
        "/rocm/rpm_repos": [],
    }, None)


def fedora43_mixed_amd_repo(t):
    fedora43_desktop(t, "2026-11-30T10:30:00Z")
    rpmdb_sqlite(t, "/var/lib/rpm/rpmdb.sqlite", [
        ("bash", None, "5.3.0", "2.fc43", "x86_64", FEDORA, FEDORA),
        ("glibc", None, "2.42", "4.fc43", "x86_64", FEDORA, FEDORA),
        ("rocm-hip", None, "6.4.2", "3.fc43", "x86_64", FEDORA, FEDORA),
        ("rocm-runtime", None, "6.4.2", "1.fc43", "x86_64", FEDORA, FEDORA)])
    fedora_repos(t)
    amd_rocm_repo(t, "6.4.1")
    return ("Synthetic: Fedora 43 with Fedora's own rocm-hip and rocm-runtime 6.4.2, and AMD's RHEL 9 ROCm 6.4.1 "
            "repository added by hand to /etc/yum.repos.d/rocm.repo (enabled): the next dnf install mixes the two "
            "builds.", {
        "/distro/id": "fedora",
        "/rocm/package_manager": "rpm",
        "/rocm/packages/0/name": "rocm-hip",
        "/rocm/packages/0/origin": "distro",
        "/rocm/rpm_repos": [{"file": "/etc/yum.repos.d/rocm.repo", "line": 1, "id": "ROCm-6.4.1",
                             "name": "ROCm6.4.1", "manager": "dnf",
                             "baseurl": "https://repo.radeon.com/rocm/el9/6.4.1/main", "enabled": True,
                             "kind": "rocm", "release": "6.4.1"}],
        "/rocm/apt_sources": {"unknown": "/etc/apt: no such directory"},
    }, None)


ROCKY_VENDOR = "Rocky Enterprise Software Foundation"
ROCKY_PACKAGER = "Rocky Linux Build System (Peridot) <releng@rockylinux.org>"
AMD_VENDOR = "Advanced Micro Devices, Inc."
AMD_PACKAGER = "ROCm Dev Support <rocm-dev.support@amd.com>"


def rocky96_amd_rocm(t):
    release = "5.14.0-570.12.1.el9_6.x86_64"
    other_distro_desktop(t, os_release_text=os_release_text([
        ("NAME", "Rocky Linux"), ("VERSION", "9.6 (Blue Onyx)"), ("ID", "rocky"), ("ID_LIKE", "rhel centos fedora"),
        ("VERSION_ID", "9.6"), ("PLATFORM_ID", "platform:el9"), ("PRETTY_NAME", "Rocky Linux 9.6 (Blue Onyx)"),
        ("ANSI_COLOR", "0;32"), ("CPE_NAME", "cpe:/o:rocky:rocky:9::baseos")]),
        release=release, proc_version="Linux version %s (mockbuild@iad1-prod-build001.bld.equ.rockylinux.org) (gcc "
        "(GCC) 11.5.0 20240719 (Red Hat 11.5.0-5), GNU ld version 2.35.2-63.el9) #1 SMP PREEMPT_DYNAMIC Tue May 13 "
        "23:55:46 UTC 2025" % release, user="robin", created="2026-11-30T11:00:00Z")
    rocm_install(t, "7.1.1", "38")
    rpmdb_sqlite(t, "/var/lib/rpm/rpmdb.sqlite", [
        ("bash", None, "5.1.8", "9.el9", "x86_64", ROCKY_VENDOR, ROCKY_PACKAGER),
        ("glibc", None, "2.34", "168.el9_6.14", "x86_64", ROCKY_VENDOR, ROCKY_PACKAGER),
        ("amdgpu-install", None, "7.1.1.70101", "1.el9", "noarch", AMD_VENDOR, AMD_PACKAGER),
        ("rocm-core", None, "7.1.1.70101", "38.el9", "x86_64", AMD_VENDOR, AMD_PACKAGER),
        ("hip-runtime-amd", None, "7.1.52802.70101", "38.el9", "x86_64", AMD_VENDOR, AMD_PACKAGER),
        ("hsa-rocr", None, "1.18.0.70101", "38.el9", "x86_64", AMD_VENDOR, AMD_PACKAGER),
        ("rocminfo", None, "1.0.0.70101", "38.el9", "x86_64", AMD_VENDOR, AMD_PACKAGER)])
    repo_file(t, "/etc/yum.repos.d/rocky.repo", [("baseos", [
        ("name", "Rocky Linux $releasever - BaseOS"),
        ("mirrorlist", "https://mirrors.rockylinux.org/mirrorlist?arch=$basearch&repo=BaseOS-$releasever$rltype"),
        ("gpgcheck", "1"), ("enabled", "1")])])
    amd_rocm_repo(t, "7.1.1")
    repo_file(t, "/etc/yum.repos.d/amdgpu.repo", [("amdgpu", [
        ("name", "amdgpu"), ("baseurl", "https://repo.radeon.com/amdgpu/30.20.1/el/9.6/main/x86_64/"),
        ("enabled", "1"), ("priority", "50"), ("gpgcheck", "1"), ("gpgkey", "https://repo.radeon.com/rocm/rocm.gpg.key")])])
    return ("Synthetic: Rocky Linux 9.6 on the 7900 XTX desktop, AMD's ROCm 7.1.1 RPMs (vendor Advanced Micro "
            "Devices, Inc., release numbers .70101) in /opt/rocm-7.1.1 and the rpm database "
            "(/var/lib/rpm/rpmdb.sqlite, made by this script), AMD's rocm and amdgpu repositories in "
            "/etc/yum.repos.d, the kernel's own amdgpu. Build numbers are invented.", {
        "/distro/id": "rocky",
        "/distro/version_id": "9.6",
        "/rocm/package_manager": "rpm",
        "/rocm/packages/0/name": "amdgpu-install",
        "/rocm/packages/0/origin": "amd",
        "/rocm/packages/1/name": "hip-runtime-amd",
        "/rocm/packages/1/version": "7.1.52802.70101-38.el9",
        "/rocm/packages/1/origin": "amd",
        "/rocm/distro_release": None,
        "/rocm/installs/1/version": "7.1.1-38",
        "/rocm/rpm_repos/0/id": "amdgpu",
        "/rocm/rpm_repos/0/kind": "amdgpu",
        "/rocm/rpm_repos/0/release": "30.20.1",
        "/rocm/rpm_repos/1/release": "7.1.1",
    }, None)


SUSE_VENDOR = "SUSE LLC <https://www.suse.com/>"
SUSE_PACKAGER = "https://bugs.opensuse.org"


def leap156_no_rocm(t):
    release = "6.4.0-150600.23.25-default"
    packages = [("bash", None, "4.4", "150400.27.3.2", "x86_64", SUSE_VENDOR, SUSE_PACKAGER),
                ("glibc", None, "2.38", "150600.14.17.2", "x86_64", SUSE_VENDOR, SUSE_PACKAGER),
                ("kernel-default", None, "6.4.0", "150600.23.25.1", "x86_64", SUSE_VENDOR, SUSE_PACKAGER)]
    other_distro_desktop(t, os_release_text=os_release_text([
        ("NAME", "openSUSE Leap"), ("VERSION", "15.6"), ("ID", "opensuse-leap"), ("ID_LIKE", "suse opensuse"),
        ("VERSION_ID", "15.6"), ("PRETTY_NAME", "openSUSE Leap 15.6"), ("ANSI_COLOR", "0;32"),
        ("CPE_NAME", "cpe:/o:opensuse:leap:15.6")]),
        release=release, proc_version="Linux version %s (geeko@buildhost) (gcc (SUSE Linux) 7.5.0, GNU ld (GNU "
        "Binutils; SUSE Linux Enterprise 15) 2.43.1.20241209-150100.7.52) #1 SMP PREEMPT_DYNAMIC Tue Oct 29 "
        "07:14:36 UTC 2024 (f3ca4b8)" % release, user="kim", created="2026-11-30T12:00:00Z",
        commands={RPM_QA_KEY: {"started": True, "exit_code": 0, "stdout": rpm_qa_output(packages), "stderr": ""}})
    # Leap 15 keeps rpm's database in ndb format under /usr/lib/sysimage/rpm; rocmdoc asks rpm -qa.
    t.write("/usr/lib/sysimage/rpm/Packages.db", b"\x00\x00\x00\x00RpmP")
    t.link("/var/lib/rpm", "../../usr/lib/sysimage/rpm")
    repo_file(t, "/etc/zypp/repos.d/repo-oss.repo", [("repo-oss", [
        ("name", "Main Repository"), ("enabled", "1"), ("autorefresh", "1"),
        ("baseurl", "http://download.opensuse.org/distribution/leap/$releasever/repo/oss/"), ("type", "rpm-md"),
        ("keeppackages", "0")])])
    return ("Synthetic: openSUSE Leap 15.6 on the 7900 XTX desktop, no ROCm. Its rpm database is ndb "
            "(/usr/lib/sysimage/rpm/Packages.db, a stub), so the packages come from a recorded rpm -qa.", {
        "/distro/id": "opensuse-leap",
        "/distro/version_id": "15.6",
        "/rocm/package_manager": "rpm",
        "/rocm/packages": [],
        "/rocm/distro_release": None,
        "/rocm/rpm_repos": [],
    }, None)


ARCH_PACKAGER = "Torsten Keßler <tpkessler@archlinux.org>"


def arch_distro_rocm(t):
    release = "6.17.8-arch1-1"
    other_distro_desktop(t, os_release_text=os_release_text([
        ("NAME", "Arch Linux"), ("PRETTY_NAME", "Arch Linux"), ("ID", "arch"), ("BUILD_ID", "rolling"),
        ("ANSI_COLOR", "38;2;23;147;209"), ("HOME_URL", "https://archlinux.org/"), ("LOGO", "archlinux-logo")]),
        release=release, proc_version="Linux version %s (linux@archlinux) (gcc (GCC) 15.2.1 20250813, GNU ld (GNU "
        "Binutils) 2.45.0) #1 SMP PREEMPT_DYNAMIC Fri, 14 Nov 2025 06:54:20 +0000" % release, user="sam",
        created="2026-11-30T13:00:00Z")
    pacman_local(t, [("bash", "5.3.3-2", "bash", "Christian Heusel <gromit@archlinux.org>"),
                     ("hip-runtime-amd", "7.2.0-1", "hip-runtime-amd", ARCH_PACKAGER),
                     ("hsa-rocr", "7.2.0-1", "hsa-rocr", ARCH_PACKAGER),
                     ("rocm-core", "7.2.0-1", "rocm-core", ARCH_PACKAGER),
                     ("rocm-hip-runtime", "7.2.0-1", "rocm-hip-sdk", ARCH_PACKAGER),
                     ("rocm-hip-sdk", "7.2.0-1", "rocm-hip-sdk", ARCH_PACKAGER),
                     ("rocminfo", "7.2.0-1", "rocminfo", ARCH_PACKAGER)])
    # pacman.conf as the pacman package ships it, without its comments.
    t.write("/etc/pacman.conf", "[options]\nHoldPkg     = pacman glibc\nArchitecture = auto\nCheckSpace\n"
            "ParallelDownloads = 5\nDownloadUser = alpm\nSigLevel    = Required DatabaseOptional\n"
            "LocalFileSigLevel = Optional\n\n#[core-testing]\n#Include = /etc/pacman.d/mirrorlist\n\n"
            "[core]\nInclude = /etc/pacman.d/mirrorlist\n\n#[extra-testing]\n#Include = /etc/pacman.d/mirrorlist\n\n"
            "[extra]\nInclude = /etc/pacman.d/mirrorlist\n\n#[multilib]\n#Include = /etc/pacman.d/mirrorlist\n")
    t.write("/etc/pacman.d/mirrorlist", "##\n## Arch Linux repository mirrorlist\n##\n\n## Worldwide\n"
            "Server = https://geo.mirror.pkgbuild.com/$repo/os/$arch\n#Server = https://mirror.rackspace.com/"
            "archlinux/$repo/os/$arch\n")
    return ("Synthetic: Arch Linux on the 7900 XTX desktop with Arch's own ROCm 7.2.0 (rocm-hip-sdk from extra) in "
            "pacman's local database and Arch's own repositories in /etc/pacman.conf; no VERSION_ID (a rolling "
            "release).", {
        "/distro/id": "arch",
        "/distro/version_id": None,
        "/rocm/package_manager": "pacman",
        "/rocm/packages/0/name": "hip-runtime-amd",
        "/rocm/packages/0/origin": "distro",
        "/rocm/packages/0/source": "hip-runtime-amd",
        "/rocm/distro_release": {"release": "7.2.0", "package": "hip-runtime-amd", "version": "7.2.0-1"},
        "/rocm/pacman_repos": [],
    }, None)


CENTOS_VENDOR = "CentOS"
CENTOS_PACKAGER = "builder@centos.org"


def centos_stream9_no_rocm(t):
    release = "5.14.0-611.el9.x86_64"
    other_distro_desktop(t, os_release_text=os_release_text([
        ("NAME", "CentOS Stream"), ("VERSION", "9"), ("ID", "centos"), ("ID_LIKE", "rhel fedora"),
        ("VERSION_ID", "9"), ("PLATFORM_ID", "platform:el9"), ("PRETTY_NAME", "CentOS Stream 9"),
        ("ANSI_COLOR", "0;31"), ("CPE_NAME", "cpe:/o:centos:centos:9")]),
        release=release, proc_version="Linux version %s (mockbuild@x86-05.stream.rdu2.redhat.com) (gcc (GCC) 11.5.0 "
        "20240719 (Red Hat 11.5.0-11), GNU ld version 2.35.2-67.el9) #1 SMP PREEMPT_DYNAMIC Fri Sep 26 08:05:36 "
        "UTC 2025" % release, user="lee", created="2026-11-30T14:00:00Z")
    rpmdb_sqlite(t, "/var/lib/rpm/rpmdb.sqlite", [
        ("bash", None, "5.1.8", "9.el9", "x86_64", CENTOS_VENDOR, CENTOS_PACKAGER),
        ("glibc", None, "2.34", "231.el9", "x86_64", CENTOS_VENDOR, CENTOS_PACKAGER),
        ("libdrm", None, "2.4.123", "2.el9", "x86_64", CENTOS_VENDOR, CENTOS_PACKAGER)])
    repo_file(t, "/etc/yum.repos.d/centos.repo", [("baseos", [
        ("name", "CentOS Stream $releasever - BaseOS"),
        ("metalink", "https://mirrors.centos.org/metalink?repo=centos-baseos-$stream&arch=$basearch&protocol=https,http"),
        ("gpgkey", "file:///etc/pki/rpm-gpg/RPM-GPG-KEY-centosofficial"), ("gpgcheck", "1"), ("repo_gpgcheck", "0"),
        ("metadata_expire", "6h"), ("countme", "1"), ("enabled", "1")])])
    return ("Synthetic: CentOS Stream 9 on the 7900 XTX desktop, no ROCm; the rpm database "
            "(/var/lib/rpm/rpmdb.sqlite, made by this script) holds the base system only.", {
        "/distro/id": "centos",
        "/distro/version_id": "9",
        "/rocm/package_manager": "rpm",
        "/rocm/packages": [],
        "/rocm/distro_release": None,
    }, None)


# ----------------------------------------------------------------------------
# Platforms and power (issue #14): a GPU held back by its power cap and its
# cooling, an unprivileged LXC container, and a cloud VM with an SR-IOV VF.

# The GPU-independent throttle bits of gpu_metrics' indep_throttle_status
# (drivers/gpu/drm/amd/pm/swsmu/inc/amdgpu_smu.h, SMU_THROTTLER_*_BIT) and
# Navi 31's own bits in throttle_status (smu13_driver_if_v13_0_0.h,
# THROTTLER_*_BIT, which smu_v13_0_0_ppt.c maps to the former).
SMU_THROTTLER_PPT0_BIT, SMU_THROTTLER_TEMP_HOTSPOT_BIT = 0, 36
SMU13_0_0_THROTTLER_TEMP_HOTSPOT_BIT, SMU13_0_0_THROTTLER_PPT0_BIT = 1, 16


def ubuntu2404_rx7900xtx_throttled(t):
    """The ubuntu2404-rx7900xtx box under a long compute job: someone lowered the power cap to 250 W with
    amd-smi, and a clogged cooler still lets the junction reach 107 of its 110 °C."""
    gpu_path = rx7900xtx_desktop(t, user_in_render=True, dkms=True, sudo=True, created="2025-07-02T21:37:55Z")
    ip_discovery(t, gpu_path, "GC", (11, 0, 0))
    # Fine-grained gfxclk (smu_v13_0_0_print_clk_levels): the middle line is the current clock when it lies
    # between the minimum and the maximum; memory at its top level under load.
    pp_dpm(t, gpu_path + "/pp_dpm_sclk", [500, 2271, 2526], current=1)
    pp_dpm(t, gpu_path + "/pp_dpm_mclk", [96, 456, 772, 1249], current=3)
    hwmon(t, gpu_path, 2, power_cap_w=(250, 327, 402),
          temps=[("edge", 84, 100), ("junction", 107, 110), ("mem", 94, 108)])
    t.attr(gpu_path + "/power/runtime_status", "active")
    # The same moment in the firmware's table: socket power at the cap, hotspot = hwmon's junction, the
    # current clocks the starred levels; PPT0 and the hotspot limit holding the clocks down, in both words.
    t.write(gpu_path + "/gpu_metrics", gpu_metrics_v1_3(
        temperature_edge=84, temperature_hotspot=107, temperature_mem=94, temperature_vrgfx=88,
        temperature_vrsoc=79, temperature_vrmem=86, average_gfx_activity=99, average_umc_activity=63,
        average_socket_power=249, average_gfxclk_frequency=2265, current_gfxclk=2271, current_socclk=1200,
        current_uclk=1249, current_fan_speed=2950,
        throttle_status=1 << SMU13_0_0_THROTTLER_PPT0_BIT | 1 << SMU13_0_0_THROTTLER_TEMP_HOTSPOT_BIT,
        indep_throttle_status=1 << SMU_THROTTLER_PPT0_BIT | 1 << SMU_THROTTLER_TEMP_HOTSPOT_BIT))
    return ("Synthetic: the ubuntu2404-rx7900xtx desktop (Ryzen 7 7700X, X670E, Radeon RX 7900 XTX, amdgpu-dkms "
            "6.12.12, ROCm 6.4.1, torch in ~/venv) recorded under a long compute job: the power cap was lowered "
            "to 250 W of the board's 327 W default (402 W maximum) and the clogged cooler still lets the junction "
            "sensor read 107 of its 110 °C. gfxclk at 2271 MHz of 2526, memory at its top level; gpu_metrics "
            "(v1.3) shows the socket at 249 W and the PPT0 and hotspot-temperature bits set in both throttle "
            "words. Recorded with sudo (root, SUDO_USER=alex).", {
        "/source/recording": "snapshot",
        "/platform/kind": "bare_metal",
        "/pci/gpus/0/address": "0000:03:00.0",
        "/pci/gpus/0/gc_version": "11.0.0",
        "/kfd/gpus/0/gfx": "gfx1100",
        "/amdgpu/module/version": "6.12.12",
        "/power/gpus/0/address": "0000:03:00.0",
        "/power/gpus/0/hwmon": "/sys/devices/pci0000:00/0000:00:01.1/0000:01:00.0/0000:02:00.0/0000:03:00.0/"
                               "hwmon/hwmon2",
        "/power/gpus/0/power_cap_w": 250,
        "/power/gpus/0/power_cap_default_w": 327,
        "/power/gpus/0/power_cap_max_w": 402,
        "/power/gpus/0/cap_below_default": True,
        "/power/gpus/0/temperatures": [{"sensor": "edge", "celsius": 84, "crit_celsius": 100},
                                       {"sensor": "junction", "celsius": 107, "crit_celsius": 110},
                                       {"sensor": "mem", "celsius": 94, "crit_celsius": 108}],
        "/power/gpus/0/thermal_headroom_c": 3,
        "/power/gpus/0/sclk_mhz": 2271,
        "/power/gpus/0/mclk_mhz": 1249,
        "/power/gpus/0/throttle": {"metrics_version": "1.3", "raw": "0x0000001000000001",
                                   "active": ["power", "temperature"]},
        "/power/gpus/0/runtime_status": "active",
        "/access/user/via_sudo": True,
        "/access/user/target": "alex",
    }, ["/home/alex/venv/bin/python"])


PVE_RELEASE = "6.8.12-4-pve"
PVE_KERNEL = ("Linux version 6.8.12-4-pve (build@proxmox) (gcc (Debian 12.2.0-14) 12.2.0, GNU ld (GNU Binutils for "
              "Debian) 2.40) #1 SMP PREEMPT_DYNAMIC PMX 6.8.12-4 (2024-11-06T15:04Z)")


def proxmox_lxc_unprivileged(t):
    """An unprivileged Proxmox VE 8 container (Ubuntu 24.04 template) on the 7900 XTX desktop turned
    hypervisor, its /dev/kfd and /dev/dri bind-mounted in by lxc.mount.entry lines."""
    # The container shares the host's kernel: its release, /proc/version, /proc/cmdline and /proc/modules are
    # the host's; lxcfs narrows /proc/cpuinfo to the container's 8 cores and /proc/meminfo to its 32 GiB.
    os_release(t, "24.04")
    kernel_files(t, PVE_RELEASE, PVE_KERNEL, "BOOT_IMAGE=/boot/vmlinuz-%s root=/dev/mapper/pve-root ro quiet "
                 "amd_iommu=on iommu=pt" % PVE_RELEASE)
    t.write("/proc/cpuinfo", cpuinfo(**dict(RAPHAEL_7700X, threads=8)))
    t.write("/proc/meminfo", meminfo(33554432))
    pve_modules = [("zfs", 6008832, 6, [], "PO"), ("spl", 151552, 1, ["zfs"], "O"), ("kvm_amd", 217088, 0, [], None),
                   ("kvm", 1400832, 1, ["kvm_amd"], None), ("vhost_net", 36864, 0, [], None)]
    t.write("/proc/modules", proc_modules(AMDGPU_STACK + pve_modules + COMMON_MODULES))
    amdgpu_module(t)  # the host's in-kernel amdgpu: /sys/module is the host's
    # An unprivileged container's root: its ids 0-65535 are the host's 100000-165535.
    uid_map(t, [(0, 100000, 65536)])
    t.write("/proc/1/cgroup", "0::/\n")  # a cgroup namespace: PID 1 sees its own cgroup as the root
    t.write("/run/systemd/container", "lxc\n")  # systemd copies PID 1's container=lxc here
    dmi(t, "ASUS", "System Product Name", "ROG STRIX X670E-E GAMING WIFI", "2007")
    # sysfs is mounted read-only (sys:mixed) without efivarfs or securityfs: EFI variables and lockdown unseen.
    firmware(t, secure_boot=None, lockdown=None)
    gpu_path = rx7900xtx_desktop_gpu(t, config_size=64)  # no CAP_SYS_ADMIN in the initial namespace: 64 bytes
    # The host's sysfs shows amdgpu's files for the idle card (the read-only ones readable by anyone).
    navi31_idle_files(t, gpu_path, edge=38, junction=43, mem=50, vr=(41, 39, 43), socket_power=19)
    t.attr(gpu_path + "/power/runtime_status", "active")
    render = 993
    etc_users(t, ["ubuntu:x:1000:1000:Ubuntu:/home/ubuntu:/bin/bash",
                  "nobody:x:65534:65534:nobody:/nonexistent:/usr/sbin/nologin"],
              ubuntu_groups("ubuntu", render, ("adm", "sudo", "video", "render")))
    apt_ubuntu(t, "noble")
    apt_rocm(t, "6.4.1", "noble")  # amdgpu-install writes both lists; installed with --no-dkms
    rocm_install(t, "6.4.1", "83")
    t.write("/var/lib/dpkg/status", "\n".join(base_packages("noble") + rocm_packages("6.4.1", "83", "noble")))
    system_python(t, 12)
    # Bind mounts of the host's nodes: the host's root and render/video gids are outside the map, so they
    # show as the overflow ids.
    nobody = 65534
    nodes = {"/dev/kfd": cdev("0660", nobody, nobody), "/dev/dri/renderD128": cdev("0660", nobody, nobody),
             "/dev/dri/card1": cdev("0660", nobody, nobody)}
    # pct enter (lxc-attach) as root; lxc-attach sets container=lxc in the attached shell's environment.
    env = {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin", "HOME": "/root", "USER": "root",
           "LOGNAME": "root", "container": "lxc"}
    sidecar(t, {"name": "root", "uid": 0, "gid": 0, "groups": [0]}, env, nodes, DMESG_DENIED,
            "2025-09-14T16:22:08Z")
    return ("Synthetic: an unprivileged LXC container on Proxmox VE 8 (host kernel 6.8.12-4-pve, its in-kernel "
            "amdgpu) with the Ubuntu 24.04 template, on the 7900 XTX desktop of ubuntu2404-rx7900xtx turned "
            "hypervisor. /proc/self/uid_map is \"0 100000 65536\"; the host's /dev/kfd and /dev/dri are "
            "bind-mounted in (lxc.mount.entry) and show as nobody:nogroup 0660, so root in here cannot open them. "
            "ROCm 6.4.1 from repo.radeon.com installed in the container with --no-dkms. Recorded as the "
            "container's root through pct enter: 64-byte config space, no dmesg, no EFI variables.", {
        "/source/recording": "snapshot",
        "/distro/version_id": "24.04",
        "/kernel/release": PVE_RELEASE,
        "/kernel/version": [6, 8, 12],
        "/platform/kind": "container",
        "/platform/in_container": True,
        "/platform/container_runtime": "lxc",
        "/platform/container_privileged": False,
        "/platform/user_namespace/uid_map": "0     100000      65536",  # the fact is the file's text, trimmed
        "/platform/user_namespace/shifted": True,
        "/platform/in_vm": False,
        "/platform/hypervisor": None,
        "/amdgpu/module/loaded": True,
        "/amdgpu/module/version": None,
        "/amdgpu/dkms/installed": [],
        "/pci/gpus/0/address": "0000:03:00.0",
        "/pci/gpus/0/device_id": "0x744c",
        "/kfd/gpus/0/gfx": "gfx1100",
        "/power/gpus/0/power_cap_w": 327,
        "/power/gpus/0/cap_below_default": False,
        "/power/gpus/0/thermal_headroom_c": 58,
        "/power/gpus/0/throttle/active": [],
        "/access/user/name": "root",
        "/access/user/via_sudo": False,
        "/access/user/target": "root",
        "/access/render_group": {"exists": True, "gid": 993},
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/owner": "nobody",
        "/access/nodes/0/group": "nogroup",
        "/access/nodes/0/mode": "0660",
        "/access/nodes/0/mode_allows": False,
        "/access/nodes/0/can_open_rw": "<unknown>",
        "/access/nodes/1/path": "/dev/dri/renderD128",
        "/access/nodes/1/owner": "nobody",
        "/access/nodes/1/group": "nogroup",
        "/access/nodes/1/mode_allows": False,
        "/firmware/gpus/0/atomics/routed_to_root": "<unknown>",
        "/rocm/default": "/opt/rocm-6.4.1",
        "/kernel_log": "<unknown>",
    }, None)


QEMU_Q35 = "Standard PC (Q35 + ICH9, 2009)"
# A KVM guest's CPU (host-passthrough): the hypervisor flag, and none of the host's power-management,
# performance-counter or SVM flags.
GUEST_ZEN4_FLAGS = " ".join(f for f in ZEN4_FLAGS.replace("rdrand lahf_lm", "rdrand hypervisor lahf_lm").split()
                            if f not in ("monitor", "aperfmperf", "rapl", "svm", "ibs", "skinit", "wdt", "tce",
                                         "perfctr_nb", "bpext", "perfctr_llc", "mwaitx", "cpb", "hw_pstate",
                                         "irperf", "cqm", "cqm_llc", "cqm_occup_llc", "cqm_mbm_total",
                                         "cqm_mbm_local", "rdt_a", "cat_l3", "cdp_l3", "mba", "overflow_recov",
                                         "succor", "smca", "npt", "lbrv", "svm_lock", "nrip_save", "tsc_scale",
                                         "vmcb_clean", "flushbyasid", "decodeassists", "pausefilter",
                                         "pfthreshold", "avic", "v_vmsave_vmload", "vgif", "v_spec_ctrl"))
GUEST_GENOA = dict(GENOA_9124, model_name="AMD EPYC 9654 96-Core Processor", microcode="0xa101148", cores=20,
                   threads=20, sockets=1, flags=GUEST_ZEN4_FLAGS, pm="", bogomips=4792.80)


def cloud_vm_mi300x_vf(t):
    """A cloud VM (QEMU/KVM, Q35, OVMF) with one MI300X SR-IOV virtual function passed through by VFIO; the
    host runs AMD's GIM driver on the physical GPU."""
    release = "5.15.0-119-generic"
    os_release(t, "22.04")
    kernel_files(t, release,
                 "Linux version 5.15.0-119-generic (buildd@lcy02-amd64-075) (gcc (Ubuntu 11.4.0-1ubuntu1~22.04) "
                 "11.4.0, GNU ld (GNU Binutils for Ubuntu) 2.38) #129-Ubuntu SMP Fri Aug 2 19:25:20 UTC 2024",
                 "BOOT_IMAGE=/vmlinuz-5.15.0-119-generic root=UUID=3c9e1f2a-6b4d-4e8a-9d71-2a5f0c8b6e13 ro "
                 "console=tty1 console=ttyS0", has_arch_file=False)
    uid_map(t, INITIAL_USER_NS)
    t.write("/proc/cpuinfo", cpuinfo(**GUEST_GENOA))
    t.write("/proc/meminfo", meminfo(247463936))
    dkms_stack = [("amdgpu", 17022976, 1, [], "OE"), ("amddrm_ttm_helper", 12288, 1, ["amdgpu"], "OE"),
                  ("amdttm", 98304, 2, ["amdgpu", "amddrm_ttm_helper"], "OE"),
                  ("amddrm_buddy", 20480, 1, ["amdgpu"], "OE"), ("amdxcp", 16384, 1, ["amdgpu"], "OE"),
                  ("amd_sched", 53248, 1, ["amdgpu"], "OE"), ("amdkcl", 32768, 3, ["amdgpu", "amdttm", "amd_sched"], "OE"),
                  ("drm_kms_helper", 311296, 1, ["amdgpu"], None)]
    virtio = [("virtio_net", 61440, 0, [], None), ("net_failover", 24576, 1, ["virtio_net"], None),
              ("virtio_blk", 24576, 2, [], None)]
    t.write("/proc/modules", proc_modules(dkms_stack + virtio))
    amdgpu_module(t, "6.12.12")
    modprobe_d(t)
    kernel_headers(t, release)
    dkms_tree(t, "6.12.12-2164967.22.04", release)
    # SMBIOS as QEMU fills it for a Q35 machine (type 2 defaults to type 1's manufacturer and product), with
    # OVMF's firmware.
    for k, v in (("sys_vendor", "QEMU"), ("product_name", QEMU_Q35), ("board_vendor", "QEMU"),
                 ("board_name", QEMU_Q35), ("bios_vendor", "EDK II"), ("bios_version", "0.0.0")):
        t.attr("/sys/devices/virtual/dmi/id/" + k, v)
    t.sysfs_link("/sys/class/dmi/id", "/sys/devices/virtual/dmi/id")
    firmware(t, secure_boot=False)
    vf_bar = 0x20000000000
    devices = [
        Pci("0000:00:00.0", 0x8086, 0x29C0, 0x060000, sub=(0x1AF4, 0x1100)),
        # QEMU's generic PCIe root ports (pcie-root-port, 16 GT/s x32 by default); QEMU 8.1+ sets the
        # AtomicOp completer bits on a root port whose assigned device's host path has them.
        Pci("0000:00:02.0", 0x1B36, 0x000C, 0x060400, driver="pcieport",
            pcie=dict(type="root", max=(4, 32), cur=(4, 16), routing=True, c32=True, c64=True, c128=True),
            windows=[(0, 0, 0), (0xC1000000, 0x200000, WIN_MEM), (vf_bar, 0x4000400000, WIN_PREF)],
            bus_range=(1, 1)),
        Pci("0000:00:02.1", 0x1B36, 0x000C, 0x060400, driver="pcieport",
            pcie=dict(type="root", max=(4, 32), cur=(4, 32), routing=True),
            windows=[(0, 0, 0), (0xC0E00000, 0x200000, WIN_MEM), (0x38000000000, 0x100000, WIN_PREF)],
            bus_range=(2, 2)),
        Pci("0000:01:00.0", 0x1002, 0x74B5, 0x120000, parent="0000:00:02.0", sub=(0x1002, 0x74A1), driver="amdgpu",
            pcie=dict(type="endpoint", max=(5, 16), cur=(5, 16), req=True),
            bars=[(0, vf_bar, 256 * GiB, MEM64_PREF), (2, vf_bar + 256 * GiB, 2 * MiB, MEM64_PREF),
                  (5, 0xC1000000, 512 * 1024, MEM32)],
            drm=dict(card="card0", render="renderD128")),
        Pci("0000:02:00.0", 0x1AF4, 0x1041, 0x020000, parent="0000:00:02.1", rev=0x01, sub=(0x1AF4, 0x1100),
            driver="virtio-pci", pcie=dict(type="endpoint", max=(1, 1), cur=(1, 1)),
            bars=[(1, 0xC0E40000, 4096, MEM32), (4, 0x38000000000, 16 * 1024, MEM64_PREF)]),
        Pci("0000:00:1f.0", 0x8086, 0x2918, 0x060100, rev=0x02, sub=(0x1AF4, 0x1100), driver="lpc_ich"),
        Pci("0000:00:1f.2", 0x8086, 0x2922, 0x010601, rev=0x02, sub=(0x1AF4, 0x1100), driver="ahci",
            bars=[(4, 0x6040, 0x20, IO), (5, 0xC1243000, 4096, MEM32)]),
        Pci("0000:00:1f.3", 0x8086, 0x2930, 0x0C0500, rev=0x02, sub=(0x1AF4, 0x1100), driver="i801_smbus",
            bars=[(4, 0x6000, 0x40, IO)]),
    ]
    paths = write_pci(t, devices, 64)  # no vIOMMU: no IOMMU groups in the guest
    # amdgpu publishes no hwmon, pp_dpm_* or gpu_metrics for a VF; runtime PM leaves it active.
    t.attr(paths["0000:01:00.0"] + "/power/runtime_status", "active")
    vf = dict(simd=1216, caches=736, simd_id_base=2147487744, arrays=32, cu_per_array=10, gfx=90402,
              device=0x74B5, clk=2100, fw=177, capability=0x3AF6A280, sdma_fw=20, name="ip discovery", heap=1,
              vram=205604765696, mem_width=8192, mem_clk=1300, wave=64, simd_per_cu=4, waves=8, gws=0, xcc=8,
              sdma=2)
    write_kfd(t, [dict(cores=20, clk=3700, mem=247463936 * 1024, mem_width=64, mem_clk=4800)],
              [dict(vf, pci="0000:01:00.0", render=128, gpu_id=37412, unique_id=0)])
    render = 110
    etc_users(t, ["ubuntu:x:1000:1000:Ubuntu:/home/ubuntu:/bin/bash"],
              ubuntu_groups("ubuntu", render, ("adm", "cdrom", "sudo", "dip", "video", "plugdev", "render"),
                            extra=(("lxd", 116), ("netdev", 117))))
    apt_ubuntu(t, "jammy")
    apt_rocm(t, "6.4.1", "jammy")
    rocm_install(t, "6.4.1", "83")
    t.write("/var/lib/dpkg/status", "\n".join(
        base_packages("jammy") + rocm_packages("6.4.1", "83", "jammy")
        + dkms_packages("6.12.12", "2164967", "60401", distro="22.04", libc="2.35")))
    system_python(t, 10)
    sidecar(t, {"name": "ubuntu", "uid": 1000, "gid": 1000, "groups": [1000, 4, 24, 27, 30, 44, 46, 110, 116, 117]},
            {"PATH": "/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin:/usr/games:/usr/local/games:"
                     "/snap/bin:/opt/rocm/bin",
             "HOME": "/home/ubuntu", "USER": "ubuntu", "LOGNAME": "ubuntu"},
            {"/dev/kfd": cdev("0660", 0, render), "/dev/dri/renderD128": cdev("0660", 0, render),
             "/dev/dri/card0": cdev("0660", 0, 44)}, DMESG_DENIED, "2025-10-03T08:41:26Z")
    return ("Synthetic: a cloud VM (QEMU/KVM Q35 with OVMF, 20 vCPUs of an EPYC 9654, 236 GiB) with one AMD "
            "Instinct MI300X SR-IOV virtual function (1002:74b5, gfx942) passed through at 0000:01:00.0; the host "
            "runs AMD's GIM driver on the physical GPU. Ubuntu 22.04 (5.15 GA kernel), amdgpu-dkms 6.12.12 and "
            "ROCm 6.4.1 from repo.radeon.com (GIM's guest list for the MI300X: Ubuntu 22.04). The VF has no hwmon, "
            "pp_dpm or gpu_metrics in the guest. Run by the cloud image's user ubuntu (in render and video) "
            "without sudo: 64-byte config space, dmesg refused. The VF's class and BAR sizes are assumed like the "
            "physical function's.", {
        "/source/recording": "snapshot",
        "/distro/version_id": "22.04",
        "/kernel/release": release,
        "/platform/kind": "vm",
        "/platform/in_vm": True,
        "/platform/hypervisor_flag": True,
        "/platform/hypervisor": "QEMU/KVM",
        "/platform/in_container": False,
        "/platform/container_privileged": None,
        "/platform/user_namespace/shifted": False,
        "/platform/dmi/sys_vendor": "QEMU",
        "/platform/dmi/product_name": QEMU_Q35,
        "/pci/gpus/0/address": "0000:01:00.0",
        "/pci/gpus/0/device_id": "0x74b5",
        "/pci/gpus/0/driver": "amdgpu",
        "/amdgpu/module/version": "6.12.12",
        "/amdgpu/dkms/installed": ["6.12.12-2164967.22.04"],
        "/amdgpu/dkms/built_for_running_kernel": True,
        "/kfd/gpus/0/gfx": "gfx942",
        "/kfd/gpus/0/pci_address": "0000:01:00.0",
        "/power/gpus/0/address": "0000:01:00.0",
        "/power/gpus/0/hwmon": "<unknown: no hwmon>",
        "/power/gpus/0/power_cap_w": "<unknown: no hwmon>",
        "/power/gpus/0/cap_below_default": "<unknown: no hwmon>",
        "/power/gpus/0/thermal_headroom_c": "<unknown: no hwmon>",
        "/power/gpus/0/sclk_mhz": "<unknown>",
        "/power/gpus/0/throttle": "<unknown: gpu_metrics>",
        "/power/gpus/0/runtime_status": "active",
        "/access/user/name": "ubuntu",
        "/access/user/via_sudo": False,
        "/access/nodes/0/path": "/dev/kfd",
        "/access/nodes/0/can_open_rw": True,
        "/rocm/default": "/opt/rocm-6.4.1",
        "/kernel_log": "<unknown>",
    }, None)


# ----------------------------------------------------------------------------

BUILDERS = {
    "ubuntu2604-rx7900xtx": ubuntu2604_rx7900xtx,
    "ubuntu2404-rx7900xtx": ubuntu2404_rx7900xtx,
    "user-not-in-render": user_not_in_render,
    "ubuntu2204-rx6700xt": ubuntu2204_rx6700xt,
    "ubuntu2204-rx7900xtx-rocm571": ubuntu2204_rx7900xtx_rocm571,
    "ubuntu2204-rx7900xtx-rocm613": ubuntu2204_rx7900xtx_rocm613,
    "laptop-780m-dgpu": laptop_780m_dgpu,
    "mi300x-container": mi300x_container,
    "desktop-amdgpu-not-loaded": desktop_amdgpu_not_loaded,
    "chipset-bridge-no-atomics": chipset_bridge_no_atomics,
    "fedora43-distro-rocm": fedora43_distro_rocm,
    "fedora43-mixed-amd-repo": fedora43_mixed_amd_repo,
    "rocky96-amd-rocm": rocky96_amd_rocm,
    "leap156-no-rocm": leap156_no_rocm,
    "arch-distro-rocm": arch_distro_rocm,
    "centos-stream9-no-rocm": centos_stream9_no_rocm,
    "ubuntu2404-rx7900xtx-throttled": ubuntu2404_rx7900xtx_throttled,
    "proxmox-lxc-unprivileged": proxmox_lxc_unprivileged,
    "cloud-vm-mi300x-vf": cloud_vm_mi300x_vf,
}


def main(names):
    unknown = [n for n in names if n not in BUILDERS]
    if unknown:  # before any rmtree: a recorded machine's name must not cost it its root/
        raise SystemExit("not a machine this script builds: %s (it builds: %s)"
                         % (", ".join(unknown), ", ".join(sorted(BUILDERS))))
    for name in names or sorted(BUILDERS):
        root = os.path.join(MACHINES, name, "root")
        if os.path.isdir(root):
            shutil.rmtree(root)
        about, facts, python_paths = BUILDERS[name](Tree(root))
        write_expect(name, about, facts, python_paths)
        print("wrote", os.path.relpath(os.path.join(MACHINES, name), os.getcwd()))


if __name__ == "__main__":
    main(sys.argv[1:])
