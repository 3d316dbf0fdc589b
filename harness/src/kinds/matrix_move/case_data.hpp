// Builds the inputs of one (kernel, case): tile contents, fragment registers and every lane's
// row address, following the case's data kind and row placement. Step k works in region k of
// each warp's tile, with the same row placement (a round trip stores where it loaded, one region on).
#pragma once

#include <cstdint>

#include "kinds/matrix_move/reference_model.hpp"
#include "model/launch.hpp"
#include "spec/spec_model.hpp"

namespace ptxcts {

// An offset far outside any shared memory: given to lanes that supply no address in poison cases.
inline constexpr std::uint32_t kPoisonOffset = 0x00FFFFF0u;
// What a row's padding holds (TileLang's sentinel): every 4- or 6-bit field of it is nonzero.
inline constexpr std::uint8_t kPaddingPoison = 0xEE;

LaunchInput make_case_input(const CaseSet& set, const CaseSpec& c, const std::vector<ModelStep>& steps);

}  // namespace ptxcts
