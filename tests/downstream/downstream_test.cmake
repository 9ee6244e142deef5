# Installs the cartex build tree into a scratch prefix, then configures, builds and runs the downstream
# project against it with find_package(cartex). Variables: BUILD_DIR, SOURCE_DIR, WORK_DIR, MPIEXEC,
# GENERATOR.
file(REMOVE_RECURSE ${WORK_DIR})
execute_process(COMMAND ${CMAKE_COMMAND} --install ${BUILD_DIR} --prefix ${WORK_DIR}/prefix
                RESULT_VARIABLE rc OUTPUT_QUIET)
if(rc)
  message(FATAL_ERROR "cmake --install failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} -S ${SOURCE_DIR} -B ${WORK_DIR}/build -G ${GENERATOR}
                        -DCMAKE_PREFIX_PATH=${WORK_DIR}/prefix -DCMAKE_BUILD_TYPE=Release
                RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "configuring the downstream project against the install tree failed (${rc})")
endif()
execute_process(COMMAND ${CMAKE_COMMAND} --build ${WORK_DIR}/build RESULT_VARIABLE rc)
if(rc)
  message(FATAL_ERROR "building the downstream project failed (${rc})")
endif()
execute_process(COMMAND ${MPIEXEC} -n 2 --oversubscribe --allow-run-as-root ${WORK_DIR}/build/downstream
                RESULT_VARIABLE rc OUTPUT_VARIABLE out ERROR_VARIABLE err)
message("${out}${err}")
if(rc OR NOT out MATCHES "downstream ok")
  message(FATAL_ERROR "the downstream program failed (${rc})")
endif()
