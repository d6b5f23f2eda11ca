#pragma once
// Multi-process tests on the CPU need c10d's Gloo backend, which a build against a PyTorch 2.x
// wheel lacks (the wheel ships no Gloo headers): they skip there and say why.
#include <gtest/gtest.h>

#include "falcon/distributed/context.h"

#define FALCON_SKIP_WITHOUT_GLOO()                         \
  if (!::falcon::distributed::backend_available("gloo")) \
  GTEST_SKIP() << "built without Gloo's headers (libgloo-dev): multi-process CPU runs need them"
