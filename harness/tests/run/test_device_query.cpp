// The device runner's --info answer, checked: numbers out of range are refused naming the field.
#include <gtest/gtest.h>

#include "run/device_query.hpp"

using namespace ptxcts;

namespace {
std::string one_gpu(const std::string& ordinal, const std::string& major, const std::string& minor) {
  return R"([{"ordinal": )" + ordinal + R"(, "name": "GPU", "major": )" + major + R"(, "minor": )" + minor +
         R"(, "driver_cuda": "13.0", "driver_version": "580.1"}])";
}
}  // namespace

TEST(DeviceQuery, AGoodAnswerIsRead) {
  DeviceQuery q = parse_device_info(one_gpu("0", "9", "0"));
  ASSERT_EQ(q.devices.size(), 1u) << q.reason;
  EXPECT_EQ(q.devices[0].sm(), "sm_90");
}

// Issue 30: "major": 99999999999 became sm_-727379978; "ordinal": -1 was passed on and every case crashed.
TEST(DeviceQuery, NumbersOutOfRangeAreRefusedNamingTheFieldAndTheRange) {
  struct Bad {
    std::string text, says;
  };
  for (auto const& [text, says] : std::vector<Bad>{
           {one_gpu("0", "99999999999", "0"), R"(device 0: "major" is 99999999999; expected an integer from 1 to 99)"},
           {one_gpu("-1", "9", "0"), R"(device 0: "ordinal" is -1; expected an integer from 0 to 1023)"},
           {one_gpu("0", "9", "10"), R"(device 0: "minor" is 10; expected an integer from 0 to 9)"},
           {one_gpu("0", "9.5", "0"), R"(device 0: "major" is 9.5; expected an integer from 1 to 99)"},
           {one_gpu("18446744073709551615", "9", "0"), R"("ordinal" is 18446744073709551615; expected an integer)"},
       }) {
    DeviceQuery q = parse_device_info(text);
    EXPECT_TRUE(q.devices.empty()) << text;
    EXPECT_NE(q.reason.find(says), std::string::npos) << q.reason;
    EXPECT_NE(q.reason.find("out of range"), std::string::npos) << q.reason;
  }
}
