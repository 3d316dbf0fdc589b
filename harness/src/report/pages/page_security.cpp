#include "report/pages/page_security.hpp"

#include <openssl/evp.h>

#include <algorithm>
#include <array>
#include <stdexcept>

namespace ptxcts {

bool url_attribute(std::string_view name) {
  for (std::string_view u : {"href", "src", "xlink:href", "action", "formaction", "poster", "data", "background"})
    if (name == u) return true;
  return false;
}

bool page_url_allowed(std::string_view url) {
  if (url.empty()) return false;
  if (url.front() == '#') return url.find_first_of("\r\n") == std::string_view::npos;  // a place in this page
  // A browser drops leading blanks and controls before reading a scheme: none of them anywhere.
  if (std::any_of(url.begin(), url.end(), [](char c) { return static_cast<unsigned char>(c) <= 0x20 || c == 0x7f; }))
    return false;
  const std::string_view path = url.substr(0, url.find_first_of("?#"));
  if (path.find(':') != std::string_view::npos || path.find('\\') != std::string_view::npos) return false;  // a scheme
  if (path.front() == '/') return false;  // absolute, or "//host"
  for (std::size_t at = 0; at <= path.size();) {  // no ".." segment
    const std::size_t end = std::min(path.find('/', at), path.size());
    if (path.substr(at, end - at) == "..") return false;
    at = end + 1;
  }
  return true;
}

std::string content_security_policy(std::string_view script_text) {
  std::array<unsigned char, EVP_MAX_MD_SIZE> digest{};
  unsigned int size = 0;
  if (EVP_Digest(script_text.data(), script_text.size(), digest.data(), &size, EVP_sha256(), nullptr) != 1)
    throw std::runtime_error("SHA-256 of the page's script failed");
  std::array<unsigned char, 4 * ((EVP_MAX_MD_SIZE + 2) / 3) + 1> base64{};
  const int n = EVP_EncodeBlock(base64.data(), digest.data(), static_cast<int>(size));
  const std::string hash(reinterpret_cast<const char*>(base64.data()), static_cast<std::size_t>(n));
  // Styles inline (the sheet and the figures' attributes) are no script, and the same sheet as the
  // file beside the page ('self'); images only from the page.
  return "default-src 'none'; script-src 'sha256-" + hash +
         "'; style-src 'self' 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'";
}

}  // namespace ptxcts
