// What a page may run and link to. Every URL written into a page (href, src) is a fragment
// ("#kernel-...") or a relative file name (no scheme, no "..", no leading '/'): anything else, a
// `javascript:` link from a toolkits.json say, is refused and written as plain text with a note.
// Every page carries a Content-Security-Policy that lets its own inline script run (by the script's
// SHA-256) and nothing else: no inline handler, no `javascript:` URL, nothing fetched.
#pragma once

#include <string>
#include <string_view>

namespace ptxcts {

// Whether `url` may be an href or src of a page.
bool page_url_allowed(std::string_view url);
// Whether the attribute `name` holds a URL (href, src, xlink:href, action, formaction, ...).
bool url_attribute(std::string_view name);

// The policy of a page whose one script element holds exactly `script_text` (as the browser reads
// it, between <script> and </script>).
std::string content_security_policy(std::string_view script_text);

}  // namespace ptxcts
