//! The cost budget: regorus's VM counts instructions, but one instruction can walk a whole
//! value (`==` or `sort` over a large array, or over an array whose members are shared copies
//! of one large value, whose size doubles with each `[a, a]` at the cost of one instruction).
//! So the VM calls the meter before each instruction (an instruction hook, where its step mode
//! would stop: `vendor/regorus/PATCHED.md`), and each instruction is charged, before it runs, by what it can walk: one unit, plus the size of the
//! operands it compares, sorts, hashes into a set or passes to a builtin — one unit per
//! scalar, collection and member, and per 64 bytes of a string, a shared value counted once
//! per place it appears (that is what a comparison walks) — times `1 + log2` of the
//! collection searched where it searches one (at most [`LOG_MAX`]). Instructions that only
//! move or index values cost a unit. The walk that measures an operand stops as soon as the
//! budget is spent.
//!
//! Why this bounds time: no instruction does more work than its charge times a constant
//! (a sort's `n log n` comparisons are charged `n (1 + log2 n)`), and measuring costs at most
//! the charge, so an appraisal's work is at most a constant times [`MAX_REGO_COST`], whatever
//! the policy and its values.
//!
//! The input, `data` and the policy's literals are walked once, before the run, and their
//! collections' sizes remembered by address (they stay alive and unchanged for the whole run,
//! so an address names one value): an operand that is the input costs one look-up, not a
//! walk.

use alloc::boxed::Box;
use alloc::collections::{BTreeMap, BTreeSet};
use alloc::rc::Rc;
use alloc::vec::Vec;
use core::cell::RefCell;

use regorus::rvm::instructions::LiteralOrRegister;
use regorus::rvm::program::Program;
use regorus::rvm::vm::{ExecutionState, InstructionHook, RegoVM, VmError};
use regorus::rvm::Instruction;
use regorus::Value;

use super::{RegoError, MAX_REGO_COST};

/// Bytes of a string charged as one unit.
const STRING_UNIT: usize = 64;

/// The most `log2` of a collection's length charged for searching it: no collection has more
/// than 2^21 members (the input's are bounded by its size, the others by the instruction
/// budget, one member an instruction: 250,000 < 2^21).
pub(super) const LOG_MAX: u64 = 21;

/// The cost meter of one appraisal.
pub(super) struct Meter {
    remaining: u64,
    /// Sizes of the collections of the input, `data` and the literals, by address.
    known: BTreeMap<usize, u64>,
    /// Keeps those values alive, so that their addresses stay theirs.
    _roots: Vec<Value>,
    /// The registers rules accumulate their values in.
    results: BTreeSet<u8>,
}

impl Meter {
    /// A meter with the whole budget, knowing the sizes inside `roots`.
    pub(super) fn new(program: &Program, roots: Vec<Value>) -> Self {
        let mut meter = Self {
            remaining: MAX_REGO_COST,
            known: BTreeMap::new(),
            _roots: Vec::new(),
            results: program
                .rule_infos
                .iter()
                .map(|rule| rule.result_reg)
                .collect(),
        };
        for root in &roots {
            meter.remember(root);
        }
        meter._roots = roots;
        meter
    }

    /// Runs an entry point, charging each instruction before it runs (the VM calls the meter
    /// where its step mode would suspend, without suspending). The meter is shared with the
    /// VM for the run and read again afterwards, by the caller's other runs and its measures.
    pub(super) fn run(
        meter: &Rc<RefCell<Self>>,
        vm: &mut RegoVM,
        entry: &str,
    ) -> Result<Value, RegoError> {
        let charged = Rc::clone(meter);
        vm.set_instruction_hook(Some(InstructionHook(Box::new(move |vm| {
            // Only the VM borrows the meter during the run; were it borrowed, the run stops.
            charged
                .try_borrow_mut()
                .is_ok_and(|mut meter| meter.charge(vm).is_ok())
        }))));
        let value = vm.execute_entry_point_by_name(entry);
        vm.set_instruction_hook(None);
        let value = value.map_err(run_error)?;
        match vm.execution_state() {
            ExecutionState::Suspended { .. } => Err(RegoError::Eval {
                detail: "the policy suspended the VM".into(),
            }),
            _ => Ok(value),
        }
    }

    /// Charges the instruction about to run.
    fn charge(&mut self, vm: &RegoVM) -> Result<(), RegoError> {
        let program = vm.get_program();
        let registers = vm.get_registers();
        let Some(instruction) = program.instructions.get(vm.get_pc()) else {
            return self.spend(1);
        };
        let data = &program.instruction_data;
        let register = |r: u8| registers.get(usize::from(r)).unwrap_or(&Value::Undefined);
        let literal = |i: u16| {
            program
                .literals
                .get(usize::from(i))
                .unwrap_or(&Value::Undefined)
        };
        // (operands walked whole, operands searched for in a collection of `searched` members)
        let mut walked: Vec<&Value> = Vec::new();
        let mut sought: Vec<&Value> = Vec::new();
        let mut searched = 0usize;
        match instruction {
            Instruction::Eq { left, right, .. }
            | Instruction::Ne { left, right, .. }
            | Instruction::Lt { left, right, .. }
            | Instruction::Le { left, right, .. }
            | Instruction::Gt { left, right, .. }
            | Instruction::Ge { left, right, .. }
            | Instruction::AssertEq { left, right } => {
                walked.extend([register(*left), register(*right)]);
            }
            Instruction::Add { left, right, .. }
            | Instruction::Sub { left, right, .. }
            | Instruction::Div { left, right, .. }
            | Instruction::Mod { left, right, .. } => {
                walked.extend([register(*left), register(*right)]);
            }
            Instruction::Contains {
                collection, value, ..
            } => {
                // An array is scanned, a set or object searched.
                walked.push(register(*collection));
                sought.push(register(*value));
                searched = len(register(*collection));
            }
            Instruction::Count { collection, .. } => {
                if let Value::String(_) = register(*collection) {
                    walked.push(register(*collection));
                }
            }
            Instruction::Index { container, key, .. } => {
                sought.push(register(*key));
                searched = len(register(*container));
            }
            Instruction::IndexLiteral {
                container,
                literal_idx,
                ..
            } => {
                sought.push(literal(*literal_idx));
                searched = len(register(*container));
            }
            Instruction::SetAdd { set, value } => {
                sought.push(register(*value));
                searched = len(register(*set));
            }
            Instruction::ObjectSet { obj, key, value } => {
                sought.push(register(*key));
                searched = len(register(*obj));
                walked.push(register(*value));
            }
            Instruction::RuleReturn {} | Instruction::DestructuringSuccess {} => {
                // Ending a body, the VM compares its rule's value with an earlier body's.
                walked.extend(self.results.iter().map(|r| register(*r)));
            }
            Instruction::ComprehensionYield { value_reg, key_reg } => {
                // Into a set or an object of up to an instruction budget of members.
                sought.push(register(*value_reg));
                if let Some(key) = key_reg {
                    sought.push(register(*key));
                }
                searched = usize::MAX;
            }
            Instruction::BuiltinCall { params_index } => {
                if let Some(params) = data.get_builtin_call_params(*params_index) {
                    let args = params.arg_registers().iter().map(|r| register(*r));
                    let name = program
                        .builtin_info_table
                        .get(usize::from(params.builtin_index))
                        .map_or("", |builtin| builtin.name.as_str());
                    match name {
                        // `n log n` work on arguments of size `n`.
                        "sort"
                        | "intersection"
                        | "__builtin_sets.union"
                        | "__builtin_sets.intersection" => {
                            sought.extend(args);
                            searched = usize::MAX;
                        }
                        // Work independent of the argument (a string's length for `count`).
                        "count" | "is_array" | "is_boolean" | "is_null" | "is_number"
                        | "is_object" | "is_set" | "is_string" | "type_name" => {
                            walked.extend(args.filter(|a| matches!(a, Value::String(_))));
                        }
                        // Work linear in the arguments.
                        _ => walked.extend(args),
                    }
                }
            }
            Instruction::SetCreate { params_index } => {
                if let Some(params) = data.get_set_create_params(*params_index) {
                    sought.extend(params.element_registers().iter().map(|r| register(*r)));
                    searched = params.element_count();
                }
            }
            Instruction::ObjectCreate { params_index } => {
                if let Some(params) = data.get_object_create_params(*params_index) {
                    sought.extend(params.fields.iter().map(|(key, _)| register(*key)));
                    sought.extend(
                        params
                            .literal_key_fields
                            .iter()
                            .map(|(key, _)| literal(*key)),
                    );
                    searched = params.field_count();
                }
            }
            Instruction::ChainedIndex { params_index } => {
                if let Some(params) = data.get_chained_index_params(*params_index) {
                    sought.extend(params.path_components.iter().map(|c| match c {
                        LiteralOrRegister::Literal(i) => literal(*i),
                        LiteralOrRegister::Register(r) => register(*r),
                    }));
                    searched = usize::MAX;
                }
            }
            Instruction::VirtualDataDocumentLookup { params_index } => {
                if let Some(params) = data.get_virtual_data_document_lookup_params(*params_index) {
                    sought.extend(params.path_components.iter().map(|c| match c {
                        LiteralOrRegister::Literal(i) => literal(*i),
                        LiteralOrRegister::Register(r) => register(*r),
                    }));
                    searched = usize::MAX;
                }
            }
            Instruction::LoopStart { params_index } => {
                // Iterating may list a collection's members first.
                if let Some(params) = data.get_loop_params(*params_index) {
                    self.spend(len(register(params.collection)) as u64)?;
                }
            }
            _ => {}
        }
        self.spend(1)?;
        for value in walked {
            let size = self.size(value, self.remaining);
            self.spend(size)?;
        }
        let factor = 1 + u64::from(usize::BITS - searched.leading_zeros()).min(LOG_MAX);
        for value in sought {
            let size = self.size(value, self.remaining / factor);
            self.spend(size.saturating_mul(factor))?;
        }
        Ok(())
    }

    fn spend(&mut self, units: u64) -> Result<(), RegoError> {
        self.remaining = self.remaining.checked_sub(units).ok_or(RegoError::Budget)?;
        Ok(())
    }

    /// The size of `value`, or a number above `cap` once the walk passes it. The walk keeps
    /// its own stack: a value nested a million deep must not overflow the native one.
    pub(super) fn size(&self, value: &Value, cap: u64) -> u64 {
        let mut total = 0u64;
        let mut stack: Vec<&Value> = alloc::vec![value];
        while let Some(value) = stack.pop() {
            total = total.saturating_add(match value {
                Value::Array(array) => match self.known.get(&address(&**array)) {
                    Some(size) => *size,
                    None => {
                        stack.extend(array.iter());
                        1
                    }
                },
                Value::Set(set) => match self.known.get(&address(&**set)) {
                    Some(size) => *size,
                    None => {
                        stack.extend(set.iter());
                        1
                    }
                },
                Value::Object(object) => match self.known.get(&address(&**object)) {
                    Some(size) => *size,
                    None => {
                        for (key, member) in object.iter() {
                            stack.push(key);
                            stack.push(member);
                        }
                        1
                    }
                },
                other => scalar_size(other),
            });
            if total > cap {
                break;
            }
        }
        total
    }

    /// Records the size of every collection inside `value` (a value of the input, `data` or
    /// the literals: bounded by the published limits, walked once).
    fn remember(&mut self, value: &Value) -> u64 {
        let (key, size) = match value {
            Value::Array(array) => (
                address(&**array),
                array
                    .iter()
                    .map(|member| self.remember(member))
                    .sum::<u64>(),
            ),
            Value::Set(set) => (
                address(&**set),
                set.iter().map(|member| self.remember(member)).sum::<u64>(),
            ),
            Value::Object(object) => (
                address(&**object),
                object
                    .iter()
                    .map(|(key, member)| self.remember(key) + self.remember(member))
                    .sum::<u64>(),
            ),
            other => return scalar_size(other),
        };
        let size = size + 1;
        self.known.insert(key, size);
        size
    }
}

/// A collection's number of members (a string's bytes).
fn len(value: &Value) -> usize {
    match value {
        Value::Array(array) => array.len(),
        Value::Set(set) => set.len(),
        Value::Object(object) => object.len(),
        Value::String(text) => text.len(),
        _ => 0,
    }
}

fn scalar_size(value: &Value) -> u64 {
    match value {
        Value::String(text) => 1 + (text.len() / STRING_UNIT) as u64,
        // A big integer: its digits come from the text (bounded) and grow a bit per `+`.
        Value::Number(_) => 2,
        _ => 1,
    }
}

fn address<T>(value: &T) -> usize {
    value as *const T as usize
}

pub(super) fn run_error(error: VmError) -> RegoError {
    match error {
        VmError::InstructionLimitExceeded { .. } | VmError::StoppedByHost { .. } => {
            RegoError::Budget
        }
        error => RegoError::Eval {
            detail: super::message(&error),
        },
    }
}
