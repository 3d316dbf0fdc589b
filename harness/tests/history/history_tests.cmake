# The history's tests that need a database server or several processes (included by
# harness/tests/CMakeLists.txt; the unit tests of history/ are its test_*.cpp, in ptxcts_tests).
#
# A real PostgreSQL server for the tests that ask for one (CTest fixture `postgres`): postgres.start
# brings one up from Debian's postgresql package (its own data folder, port and socket under /tmp; as
# root, run as nobody), postgres.stop takes it down and removes its folder. Where none can start,
# postgres.start says why and passes, and each test that needs the server skips (77) with that reason.
set(_pg_state "${CMAKE_CURRENT_BINARY_DIR}/postgres-fixture.state")
set(_pg_fixture "${CMAKE_CURRENT_SOURCE_DIR}/history/postgres_fixture.sh")
add_test(NAME postgres.start COMMAND "${_pg_fixture}" start "${_pg_state}")
add_test(NAME postgres.stop COMMAND "${_pg_fixture}" stop "${_pg_state}")
set_tests_properties(postgres.start PROPERTIES FIXTURES_SETUP postgres LABELS "history;postgres" TIMEOUT 60)
set_tests_properties(postgres.stop PROPERTIES FIXTURES_CLEANUP postgres LABELS "history;postgres" TIMEOUT 60)

# Writers at once into one history, SQLite and PostgreSQL: 4 `ptxcts run` on the fake device (4 GPUs),
# then 4 `history import` of all their reports; each run held once, every case (history/concurrent_writers.py).
# The runs are the small suite's (chaos.catalog's specs and catalog, as the Slurm fleet's).
foreach(_kind sqlite postgresql)
  set(_cmd ${PTXCTS_PYTHON3} "${CMAKE_CURRENT_SOURCE_DIR}/history/concurrent_writers.py" $<TARGET_FILE:ptxcts>
      $<TARGET_FILE:fake_device_runner> "${PTXCTS_SMALL_SUITE}/catalog" "${CMAKE_CURRENT_BINARY_DIR}/history-concurrent" ${_kind}
      --specs "${PTXCTS_SMALL_SUITE}/specs")
  if(_kind STREQUAL postgresql)
    set(_cmd "${_pg_fixture}" with "${_pg_state}" ${_cmd})
  endif()
  add_test(NAME history.concurrent-writers-${_kind} COMMAND ${_cmd})
  set_tests_properties(history.concurrent-writers-${_kind} PROPERTIES LABELS "history" SKIP_RETURN_CODE 77 TIMEOUT 300
                       FIXTURES_REQUIRED chaos_catalog RESOURCE_LOCK chaos_suite)
endforeach()
set_tests_properties(history.concurrent-writers-postgresql PROPERTIES FIXTURES_REQUIRED "postgres;chaos_catalog" LABELS "history;postgres")

# The Slurm fleet of slurm.fleet-of-four (the small suite, as there), its tasks recording into the
# fixture's PostgreSQL history (submit-fleet.sh with PTXCTS_HISTORY) and its merge job drawing the
# history page of the array's runs.
add_test(NAME slurm.fleet-into-postgres
         COMMAND "${_pg_fixture}" with "${_pg_state}" env FLEET_TEST_HISTORY=postgres
                 "${CMAKE_CURRENT_SOURCE_DIR}/slurm/slurm_fleet.sh" $<TARGET_FILE:ptxcts> $<TARGET_FILE:fake_device_runner>
                 "${PTXCTS_SMALL_SUITE}/catalog" "${PROJECT_SOURCE_DIR}" "${PTXCTS_SMALL_SUITE}/specs")
set_tests_properties(slurm.fleet-into-postgres PROPERTIES LABELS "slurm;history;postgres" SKIP_RETURN_CODE 77 TIMEOUT 180
                     RESOURCE_LOCK "slurm;chaos_suite" FIXTURES_REQUIRED "postgres;chaos_catalog")
