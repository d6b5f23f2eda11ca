#pragma once
// Every difference between Debian's LibTorch 1.13 and PyTorch 2.x in the c10d API we use lives
// here; only falcon/distributed/*.cpp include it, so c10d and gloo headers stay out of the rest.
//
// What differs, and what does not:
//   - 1.13: ProcessGroupGloo / ProcessGroupNCCL derive from c10d::ProcessGroup.
//     2.x:  they derive from c10d::Backend (ProcessGroup became a dispatcher over backends).
//     The collectives we call (broadcast, allreduce, allgather, barrier) have the same
//     signatures on both bases, so one alias is enough.
//   - c10d::Work (Work.hpp) is the work handle on both (1.13 already split it out of
//     ProcessGroup::Work); TCPStore(host, TCPStoreOptions) with the same field names on both
//     (2.x adds masterListenFd / useLibUV, left at their defaults).
//   - Gloo's Options::create(timeout) and createDeviceFor*(...) keep their call syntax (2.x
//     adds a defaulted lazyInit argument); NCCL's Options::create(bool high_priority) then
//     ->timeout on both.
//
// FALCON_HAVE_GLOO / FALCON_HAVE_NCCL are set by falcon/CMakeLists.txt when the backend's own
// headers exist, with USE_C10D_GLOO / USE_C10D_NCCL, without which the c10d backend headers are
// empty. PyTorch 2.x's CMake config defines USE_C10D_* itself even where its wheel ships no Gloo
// headers, so only our macros decide what is included.
#include <torch/csrc/distributed/c10d/TCPStore.hpp>
#include <torch/csrc/distributed/c10d/Types.hpp>
#include <torch/csrc/distributed/c10d/Work.hpp>
#include <torch/version.h>

#ifdef FALCON_HAVE_GLOO
#include <torch/csrc/distributed/c10d/ProcessGroupGloo.hpp>
#endif
#ifdef FALCON_HAVE_NCCL
#include <c10/cuda/CUDAFunctions.h>
#include <torch/csrc/distributed/c10d/ProcessGroupNCCL.hpp>
#endif

#if TORCH_VERSION_MAJOR >= 2
#include <torch/csrc/distributed/c10d/Backend.hpp>
#else
#include <torch/csrc/distributed/c10d/ProcessGroup.hpp>
#endif

namespace falcon::distributed::c10d_shim {

#if TORCH_VERSION_MAJOR >= 2
using BackendBase = ::c10d::Backend;
#else
using BackendBase = ::c10d::ProcessGroup;
#endif
using BackendPtr = c10::intrusive_ptr<BackendBase>;
using WorkPtr = c10::intrusive_ptr<::c10d::Work>;

inline constexpr bool kHaveGloo =
#ifdef FALCON_HAVE_GLOO
    true;
#else
    false;
#endif

inline constexpr bool kHaveNccl =
#ifdef FALCON_HAVE_NCCL
    true;
#else
    false;
#endif

}  // namespace falcon::distributed::c10d_shim
