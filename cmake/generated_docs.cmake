# The man pages and shell completions, from the built binary's own command
# line definition (src/cli/app.cpp): `rocmdoc help-man DIR` writes the pages,
# `rocmdoc completion SHELL` prints each script. Run by the build
# (CMakeLists.txt, target rocmdoc_generated_docs) as
#   cmake -DROCMDOC=BINARY -DOUT=DIR -DSTAMP=FILE -P generated_docs.cmake
# Into OUT/man: rocmdoc*.1 (read by the tests) and rocmdoc*.1.gz (installed,
# compressed as Debian policy asks: gzip -9n, no name or time inside);
# into OUT/completions: rocmdoc.bash, _rocmdoc, rocmdoc.fish; with
# -DCHANGELOG=FILE, OUT/changelog.Debian.gz from it.
foreach(var ROCMDOC OUT STAMP)
  if(NOT ${var})
    message(FATAL_ERROR "generated_docs.cmake: -D${var}=... is required")
  endif()
endforeach()
find_program(GZIP gzip REQUIRED)

# Pages of commands that no longer exist must not linger (and be installed).
file(REMOVE_RECURSE ${OUT}/man ${OUT}/completions)
file(MAKE_DIRECTORY ${OUT}/man ${OUT}/completions)
execute_process(COMMAND ${ROCMDOC} help-man ${OUT}/man RESULT_VARIABLE rc ERROR_VARIABLE err)
if(NOT rc EQUAL 0)
  message(FATAL_ERROR "rocmdoc help-man failed (${rc}): ${err}")
endif()
file(GLOB pages ${OUT}/man/*.1)
if(NOT pages)
  message(FATAL_ERROR "rocmdoc help-man wrote no page into ${OUT}/man")
endif()
foreach(page IN LISTS pages)
  execute_process(COMMAND ${GZIP} -9n -c ${page} OUTPUT_FILE ${page}.gz RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${page} failed")
  endif()
endforeach()

foreach(pair "bash;rocmdoc.bash" "zsh;_rocmdoc" "fish;rocmdoc.fish")
  list(GET pair 0 shell)
  list(GET pair 1 file)
  execute_process(COMMAND ${ROCMDOC} completion ${shell} OUTPUT_FILE ${OUT}/completions/${file}
                  RESULT_VARIABLE rc ERROR_VARIABLE err)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "rocmdoc completion ${shell} failed (${rc}): ${err}")
  endif()
endforeach()
if(CHANGELOG)
  execute_process(COMMAND ${GZIP} -9n -c ${CHANGELOG} OUTPUT_FILE ${OUT}/changelog.Debian.gz RESULT_VARIABLE rc)
  if(NOT rc EQUAL 0)
    message(FATAL_ERROR "gzip ${CHANGELOG} failed")
  endif()
endif()
file(TOUCH ${STAMP})
