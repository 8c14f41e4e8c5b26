// The execution engine: workgroups spread over CPU threads, every work-item a fiber, waves
// of 64 lanes that meet at cross-lane operations and workgroup barriers. Its parts, each
// including the ones it builds on:
//   workgroup.h  the records of a launch: workgroups, waves, lanes and where lanes meet
//   faults.h     a SIGSEGV/SIGBUS in a work-item fails the launch, naming the work-item
//   lds.h        static and dynamic LDS
//   scheduler.h  runs the work-items of a workgroup, wave by wave
//   watchdog.h   stops a launch that makes no progress
//   launch.h     `kernel<<<...>>>`: runs the workgroups on worker threads
#pragma once
#include "emu/workgroup.h"
#include "emu/faults.h"
#include "emu/lds.h"
#include "emu/scheduler.h"
#include "emu/watchdog.h"
#include "emu/launch.h"
