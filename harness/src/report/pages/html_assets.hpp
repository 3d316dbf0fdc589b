// The one style sheet and script every page carries inline (pages must open with no network).
#pragma once

namespace ptxcts {

// Status and verdict colors (.pass, .fail, .crash, ..., .confirmed, .contradicted, ...), the
// matrix, the layout figures, <details> for the cases.
extern const char* const kPageStyle;
// Its name as a file beside the pages (report/pages/html_document's write_html_page).
inline constexpr const char* kPageStyleFile = "ptxcts.css";
// window.onerror records every script error into <ol id="script-errors"> (the browser test reads it
// back from the DOM); the matrix filter (family and text); <body data-ready="yes"> once it has run,
// and data-first-paint-ms (the browser's first contentful paint) after the load.
extern const char* const kPageScript;

}  // namespace ptxcts
