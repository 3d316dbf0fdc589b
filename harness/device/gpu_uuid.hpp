// A GPU's UUID as nvidia-smi and CUDA_VISIBLE_DEVICES write it, GPU-xxxxxxxx-xxxx-xxxx-xxxx-xxxxxxxxxxxx
// ("" where the driver does not say): the device runner's --info and the fault probe's own use.
#pragma once

#include <cuda.h>

#include <cstdio>
#include <string>

inline std::string gpu_uuid_text(CUdevice dev) {
  CUuuid u{};
  if (cuDeviceGetUuid(&u, dev) != CUDA_SUCCESS) return "";
  std::string s = "GPU-";
  for (int i = 0; i < 16; ++i) {
    char h[3];
    std::snprintf(h, sizeof h, "%02x", static_cast<unsigned char>(u.bytes[i]));
    s += h;
    if (i == 3 || i == 5 || i == 7 || i == 9) s += '-';
  }
  return s;
}
