// Whether a recorded tree kept /etc at all.
//
// Why: a probe that reads "no such file" as "nothing configured" must not
// read it from a tree that never recorded the files. Every glibc system has
// the dynamic loader's /etc/ld.so.conf or /etc/ld.so.conf.d, so a tree with
// neither did not record /etc, and what is missing under it says nothing
// about the machine. The ld.so.conf and OpenCL vendors probes both ask.
#pragma once

#include "probe/probe.h"

namespace rocmdoc {

inline bool etc_recorded(ProbeContext& ctx) {
  return ctx.fs().exists("/etc/ld.so.conf") || ctx.fs().exists("/etc/ld.so.conf.d");
}

}  // namespace rocmdoc
