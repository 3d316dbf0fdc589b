# The build's catalog step prints its progress as it goes: ninja holds back a command's output
# until it ends unless the command is in the console pool (USES_TERMINAL), so without it the catalog
# said nothing for minutes. Checks the generated build.ninja: the edge that writes OUTPUT is in it.
#   cmake -DNINJA_FILE=build/build.ninja -DOUTPUT=catalog/manifest.json -P check_console_pool.cmake
file(STRINGS "${NINJA_FILE}" lines)
set(in_edge FALSE)
set(found_edge FALSE)
foreach(line IN LISTS lines)
  if(line MATCHES "^build ([^ |:]+)")
    set(in_edge FALSE)
    if(CMAKE_MATCH_1 STREQUAL "${OUTPUT}")
      set(in_edge TRUE)
      set(found_edge TRUE)
    endif()
  elseif(in_edge AND line MATCHES "^  pool = console$")
    message(STATUS "${OUTPUT} is built in the console pool: its progress is shown as it goes")
    return()
  endif()
endforeach()
if(NOT found_edge)
  message(FATAL_ERROR "${NINJA_FILE}: no build statement writes ${OUTPUT}")
endif()
message(FATAL_ERROR "${NINJA_FILE}: the build statement of ${OUTPUT} is not in the console pool (USES_TERMINAL), so ninja holds back its progress until it ends")
