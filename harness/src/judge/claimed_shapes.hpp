// The operands the audit plan (judge/audit_plan.cpp) writes a hand-listed form and a register
// claim with: how many registers of which type each operand gets.
#pragma once

#include <deque>

#include "judge/probe_text.hpp"
#include "spec/grammar.hpp"

namespace ptxcts {

// A hand-listed form's operands: its registers (.f64 ones for .f64 fragments, else .b32) and its
// address register's width.
OperandShape form_shape(const AuditForm& f);

// The first 64-bit (or addressless) instance of the claim's variant that its selection picks.
const Instance* claimed_instance(const RegisterClaim& rc, const std::deque<Instance>& instances);

// The instance's operands as the spec gives them.
OperandShape instance_shape(const Instance& inst);

// The instance's operands as the spec gives them, but the claimed one with the stated count.
OperandShape claimed_shape(const RegisterClaim& rc, const Instance& inst);

}  // namespace ptxcts
