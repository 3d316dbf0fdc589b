// `ptxcts catalog`: every kernel assembled for the targets asked (commands share make_catalog), and
// what a catalog taken as it is must be: this suite's (check_catalog_origin), its toolkit as its
// manifest records it (catalog_audit_toolchain), its SASS (disassemble_catalog).
#pragma once

#include "assemble/catalog.hpp"
#include "commands/command.hpp"
#include "plan/suite.hpp"

namespace ptxcts {

Command add_catalog_command(CLI::App& app, Paths& paths);

// The catalog of `suite` brought up to date in p.catalog for p.targets, with its SASS unless !p.sass.
Catalog make_catalog(const Suite& suite, const Paths& p);
// What the catalog's kernels became (every accepted cubin disassembled, or why not), in its manifest.
void disassemble_catalog(Catalog& c, const Suite& suite, const std::string& ptxas, const Paths& p);
// A catalog run as it is must have been made by this suite from these specs and skeletons.
void check_catalog_origin(const Catalog& c, const CatalogOrigin& want, const Paths& p);
// The toolkit of a catalog taken as it is, for its audit (no ptxas needed: the probes are cached).
Toolchain catalog_audit_toolchain(const Catalog& c, const Paths& p);

}  // namespace ptxcts
