#include "falcon/recipe/lr_schedule.h"

#include <gtest/gtest.h>

#include <cmath>

#include "falcon/core/error.h"

namespace falcon::recipe {
namespace {

TEST(LrSchedule, WarmupThenCosineToTheFloor) {
  LrSchedule s{/*peak=*/1.0, /*warmup_steps=*/3, /*total_steps=*/13, ScheduleKind::kCosine, /*min_ratio=*/0.1};
  EXPECT_DOUBLE_EQ(s.at(0), 0.25);
  EXPECT_DOUBLE_EQ(s.at(2), 0.75);
  EXPECT_DOUBLE_EQ(s.at(3), 1.0);                     // first step after warmup: the peak
  EXPECT_NEAR(s.at(8), 0.1 + 0.9 * 0.5 * (1 + std::cos(M_PI * 5.0 / 9.0)), 1e-12);
  EXPECT_DOUBLE_EQ(s.at(12), 0.1);                    // last step: the floor
  EXPECT_DOUBLE_EQ(s.at(100), 0.1);
}

TEST(LrSchedule, LinearAndConstant) {
  LrSchedule linear{2.0, 0, 5, ScheduleKind::kLinear, 0.0};
  EXPECT_DOUBLE_EQ(linear.at(0), 2.0);
  EXPECT_DOUBLE_EQ(linear.at(2), 1.0);
  EXPECT_DOUBLE_EQ(linear.at(4), 0.0);
  LrSchedule constant{2.0, 2, 5, ScheduleKind::kConstant, 0.0};
  EXPECT_DOUBLE_EQ(constant.at(0), 2.0 / 3.0);
  EXPECT_DOUBLE_EQ(constant.at(4), 2.0);
  EXPECT_THROW(schedule_kind_from_string("cosin", "stages[0].schedule"), Error);
}

TEST(LrSchedule, WarmupStableDecayHoldsThePeakThenDecaysLinearlyOverItsLastSteps) {
  LrSchedule wsd{/*peak=*/1.0, /*warmup_steps=*/2, /*total_steps=*/12, ScheduleKind::kWsd, /*min_ratio=*/0.2,
                 /*decay_steps=*/5};
  EXPECT_DOUBLE_EQ(wsd.at(0), 1.0 / 3.0);  // warmup as the others
  EXPECT_DOUBLE_EQ(wsd.at(2), 1.0);
  EXPECT_DOUBLE_EQ(wsd.at(6), 1.0);        // stable until the decay's first step (12 - 5 = 7)
  EXPECT_DOUBLE_EQ(wsd.at(7), 1.0);
  EXPECT_DOUBLE_EQ(wsd.at(9), 0.2 + 0.8 * 0.5);
  EXPECT_DOUBLE_EQ(wsd.at(11), 0.2);       // the last step: the floor
  EXPECT_EQ(schedule_kind_from_string("wsd", "stages[0].schedule"), ScheduleKind::kWsd);
  // A decay longer than the run after warmup starts right after warmup.
  LrSchedule all{1.0, 2, 6, ScheduleKind::kWsd, 0.0, 100};
  EXPECT_DOUBLE_EQ(all.at(2), 1.0);
  EXPECT_DOUBLE_EQ(all.at(5), 0.0);
}

}  // namespace
}  // namespace falcon::recipe
