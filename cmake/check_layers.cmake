# Fails the build when a stage's source includes a header of a stage that
# is not below it (CMakeLists.txt, ROCMDOC_STAGES). The linker alone would
# not notice: a header-only use of an upper stage links fine.
#
#   cmake -DSTAGE=probe -DALLOWED="base|formats|..." -DSTAGES="base|...|cli"
#         -DSOURCES="a.cpp|b.h" -DSTAMP=file -P check_layers.cmake
#
# Every spelling counts: "x/y.h" and <x/y.h> (src/ is on the include path),
# with or without a space after #include, and ../ in front. Each file is read
# whole rather than as a CMake list of lines, which a ';' or an unbalanced
# '[' in the source would split or merge.
foreach(list ALLOWED STAGES SOURCES)
  string(REPLACE "|" ";" ${list} "${${list}}")
endforeach()
set(failures "")
foreach(file IN LISTS SOURCES)
  file(READ "${file}" content)
  string(REGEX MATCHALL "#[ \t]*include[ \t]*[<\"][^>\"\n]*[>\"]" includes "${content}")
  foreach(include IN LISTS includes)
    if(NOT include MATCHES "[<\"](\\.\\.?/)*([a-z_]+)/([^>\"]+)[>\"]$")
      continue()
    endif()
    set(target_stage "${CMAKE_MATCH_2}")
    set(header "${CMAKE_MATCH_2}/${CMAKE_MATCH_3}")
    list(FIND STAGES "${target_stage}" is_stage)
    list(FIND ALLOWED "${target_stage}" is_allowed)
    if(is_stage GREATER -1 AND is_allowed EQUAL -1 AND NOT target_stage STREQUAL STAGE)
      # The line: count the newlines before the include's first occurrence.
      string(FIND "${content}" "${include}" at)
      string(SUBSTRING "${content}" 0 ${at} before)
      string(REGEX MATCHALL "\n" newlines "${before}")
      list(LENGTH newlines line)
      math(EXPR line "${line} + 1")
      # The leading space keeps CMake from re-wrapping the line, so it stays
      # one greppable "file:line: ..." whatever the length of the path.
      string(APPEND failures " ${file}:${line}: the ${STAGE} stage includes ${header}, "
                             "but ${target_stage} is not below ${STAGE} (it may use: ${ALLOWED})\n")
    endif()
  endforeach()
endforeach()
if(failures)
  message(FATAL_ERROR "An include reaches up the pipeline:\n${failures}")
endif()
file(WRITE "${STAMP}" "ok\n")
