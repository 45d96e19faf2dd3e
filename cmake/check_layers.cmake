# Fails the build when a stage's source includes a header of a stage that
# is not below it (CMakeLists.txt, ROCMDOC_STAGES). The linker alone would
# not notice: a header-only use of an upper stage links fine.
#
#   cmake -DSTAGE=probe -DALLOWED="base|formats|..." -DSTAGES="base|...|cli"
#         -DSOURCES="a.cpp|b.h" -DSTAMP=file -P check_layers.cmake
foreach(list ALLOWED STAGES SOURCES)
  string(REPLACE "|" ";" ${list} "${${list}}")
endforeach()
set(failures "")
foreach(file IN LISTS SOURCES)
  file(STRINGS "${file}" lines)
  set(number 0)
  foreach(line IN LISTS lines)
    math(EXPR number "${number} + 1")
    if(line MATCHES "^[ \t]*#[ \t]*include[ \t]+\"([a-z_]+)/([^\"]+)\"")
      set(target_stage "${CMAKE_MATCH_1}")
      set(header "${CMAKE_MATCH_1}/${CMAKE_MATCH_2}")
      list(FIND STAGES "${target_stage}" is_stage)
      list(FIND ALLOWED "${target_stage}" is_allowed)
      if(is_stage GREATER -1 AND is_allowed EQUAL -1 AND NOT target_stage STREQUAL STAGE)
        string(APPEND failures "${file}:${number}: the ${STAGE} stage includes ${header}, "
                               "but ${target_stage} is not below ${STAGE} (it may use: ${ALLOWED})\n")
      endif()
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "An include reaches up the pipeline:\n${failures}")
endif()
file(WRITE "${STAMP}" "ok\n")
