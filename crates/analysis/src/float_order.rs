//! Floating-point sums whose rounding depends on the order the GPU ran the atomics that made them
//! (`atomicAdd(&sum, x)` on a `float` or `double`: `red.global.add.f32`, `atom.add.f64`), and
//! whether a launch decides anything on them.
//!
//! No two runs of a GPU add such a sum in the same order, so its last bits differ from run to run
//! and from the emulation's. A launch that only stores what it computes from the sum as floats
//! (a centre as a sum divided by a count) counts the same accesses and branches whatever those
//! bits; one that compares it and branches, selects an index, forms an address or stores an
//! integer from it (the nearest centre's label) may go elsewhere on the GPU, so its counters are
//! estimates. Read off the PTX text, flow-insensitively, as `reconcile`'s other taints: a register
//! loaded from a region that holds such sums is tainted, so is every register an instruction
//! writes from a tainted one, and every load from shared, local or parameter memory (or a generic
//! address) once a tainted value is stored there. A region a launch writes at addresses formed
//! from such a value (a histogram counted at a bin a sum picked) holds order-dependent values too,
//! for the launches that read it.

use std::collections::{BTreeMap, BTreeSet};

use warpscope_ptx::Program;

use crate::reconcile::{Op, parse_ops, spread};

/// A parameter word: (parameter index, byte offset of an 8-byte word inside it).
pub type Word = (usize, u32);

/// What a launch of a kernel does with order-dependent float sums ([`float_order`]).
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct FloatOrder {
    /// The first instruction (pc) where a value read from such sums, or returned by a float
    /// atomic of the launch, decides: a predicate guarding an instruction (a branch), an address, or
    /// a value stored as an integer or passed to a call.
    pub decision: Option<u32>,
    /// The parameter words whose regions hold such sums (or values that follow their rounding)
    /// after the launch: the targets of its own float atomics that add, of its global stores of
    /// tainted values, and of its global stores and atomics at tainted addresses (a count kept at
    /// a bin a sum picked) (`None`: not told by the PTX, every region it can write). Empty where it
    /// writes none.
    pub sums: Option<BTreeSet<Word>>,
}

/// Whether an atomic or reduction adds floating-point values (`add` on `.f32`, `.f64`, `.f16`,
/// `.bf16` or their pairs): its result depends on the order the adds ran in (`min` and `max`
/// do not round, and `exch` and `cas` are bitwise).
pub fn float_add_atomic(op: &str) -> bool {
    (op.starts_with("atom.") || op.starts_with("red."))
        && (op.contains(".add.") || op.contains(".sub."))
        && is_float(op)
}

fn is_float(op: &str) -> bool {
    [".f16", ".f32", ".f64", ".bf16"].iter().any(|t| op.contains(t))
}

/// An access that may reach global memory (`.global` or generic).
fn may_be_global(op: &str) -> bool {
    !(op.contains(".shared") || op.contains(".local") || op.contains(".param") || op.contains(".const"))
}

/// The memories besides global an access may reach, as bits: 1 shared, 2 local, 4 a call's
/// parameters (a kernel's own parameters are never stored to); a generic access may reach
/// shared and local memory.
fn private_spaces(op: &str) -> u8 {
    if op.contains(".shared") {
        1
    } else if op.contains(".local") {
        2
    } else if op.contains(".param") {
        4
    } else if op.contains(".global") || op.contains(".const") {
        0
    } else {
        3
    }
}

fn is_load(op: &str) -> bool {
    op.starts_with("ld.") || op.starts_with("ldu.") || op.starts_with("atom.")
}

fn is_store(op: &str) -> bool {
    op.starts_with("st.") || op.starts_with("atom.") || op.starts_with("red.")
}

/// The parameter words each register's value derives from (a pointer parameter, a pointer in a
/// struct passed by value), with `None` for a register that may derive from a 64-bit value
/// loaded from memory (a pointer read from a table).
fn origins<'a>(k: &warpscope_ptx::Kernel, parsed: &'a [Op]) -> BTreeMap<&'a str, Option<BTreeSet<Word>>> {
    let mut origin: BTreeMap<&str, Option<BTreeSet<Word>>> = BTreeMap::new();
    for o in parsed {
        if o.op.starts_with("ld.param") {
            let inside = o
                .operands
                .first()
                .map(|s| s.trim().trim_start_matches('[').trim_end_matches(']'))
                .unwrap_or("");
            let (name, plus) = inside.split_once('+').unwrap_or((inside, "0"));
            let word = plus
                .trim()
                .parse::<u32>()
                .ok()
                .zip(k.params.iter().position(|p| p.name == name.trim()))
                .map(|(plus, i)| (i, plus & !7));
            for d in &o.dests {
                let e = origin.entry(d.as_str()).or_insert_with(|| Some(BTreeSet::new()));
                match (e.as_mut(), word) {
                    (Some(s), Some(w)) => {
                        s.insert(w);
                    }
                    // a call's parameter, or one not told: anything
                    _ => *e = None,
                }
            }
        } else if is_load(&o.op) && [".u64", ".b64", ".s64"].iter().any(|t| o.op.contains(t)) {
            for d in &o.dests {
                origin.insert(d.as_str(), None);
            }
        }
    }
    loop {
        let mut grew = false;
        for o in parsed {
            if o.op.starts_with("ld.param") {
                continue;
            }
            let memory = is_load(&o.op);
            let mut from: Option<BTreeSet<Word>> = Some(BTreeSet::new());
            for r in o.srcs.iter().filter(|r| !(memory && o.address.contains(r))) {
                match (origin.get(r.as_str()), from.as_mut()) {
                    (Some(None), _) => from = None,
                    (Some(Some(s)), Some(f)) => f.extend(s.iter().copied()),
                    _ => {}
                }
            }
            for d in &o.dests {
                let e = origin.entry(d.as_str()).or_insert_with(|| Some(BTreeSet::new()));
                match (e.as_mut(), from.as_ref()) {
                    (None, _) => {}
                    (Some(_), None) => {
                        *e = None;
                        grew = true;
                    }
                    (Some(s), Some(f)) => {
                        let n = s.len();
                        s.extend(f.iter().copied());
                        grew |= s.len() > n;
                    }
                }
            }
        }
        if !grew {
            break;
        }
    }
    origin
}

/// The parameter words an access's address derives from; `None` where that is not told (no
/// parameter, or a loaded pointer).
fn address_words(origin: &BTreeMap<&str, Option<BTreeSet<Word>>>, o: &Op) -> Option<BTreeSet<Word>> {
    let mut words = BTreeSet::new();
    for r in &o.address {
        match origin.get(r.as_str()) {
            Some(Some(s)) => words.extend(s.iter().copied()),
            Some(None) => return None,
            None => {}
        }
    }
    (!words.is_empty()).then_some(words)
}

/// Taints, until nothing changes, registers through instructions ([`spread`]) and through memory a
/// thread may read back without the address telling where: a tainted value stored to shared or
/// local memory (or through a generic address), or passed to a call, taints every load from that
/// memory.
fn spread_all<'a>(k: &warpscope_ptx::Kernel, ops: &'a [Op], tainted: &mut BTreeSet<&'a str>) {
    let own_param = |o: &Op| {
        o.operands.first().is_some_and(|a| {
            let inside = a.trim().trim_start_matches('[').trim_end_matches(']');
            let name = inside.split_once('+').map_or(inside, |(n, _)| n).trim();
            k.params.iter().any(|p| p.name == name)
        })
    };
    loop {
        let before = tainted.len();
        spread(ops, tainted);
        let stored: u8 = ops
            .iter()
            .filter(|o| {
                is_store(&o.op)
                    && o.srcs
                        .iter()
                        .filter(|r| !o.address.contains(r))
                        .any(|r| tainted.contains(r.as_str()))
            })
            .fold(0, |m, o| m | private_spaces(&o.op));
        if stored != 0 {
            for o in ops {
                let sp = private_spaces(&o.op);
                if is_load(&o.op) && sp & stored != 0 && !(sp == 4 && own_param(o)) {
                    tainted.extend(o.dests.iter().map(String::as_str));
                }
            }
        }
        if tainted.len() == before {
            break;
        }
    }
}

/// Names each register by the function body the lowering took its instruction from
/// ([`warpscope_ptx::InstInfo::body`]): device functions are inlined into the kernel's
/// instructions with their own registers (`%f1` of a callee is not the kernel's `%f1`, nor that of
/// another inlined copy of the same callee); they meet only through parameter memory
/// (`st.param`, `ld.param`).
fn by_function(program: &Program, k: &warpscope_ptx::Kernel, ops: &mut [Op]) {
    let bodies: Vec<u32> = (k.entry..k.end).map(|pc| program.inst_info(pc).body).collect();
    if bodies.iter().all(|&b| b == 0) {
        return;
    }
    for (o, body) in ops.iter_mut().zip(bodies) {
        let name = |r: &mut String| {
            r.push('#');
            r.push_str(&body.to_string());
        };
        o.dests.iter_mut().for_each(name);
        o.srcs.iter_mut().for_each(name);
        o.address.iter_mut().for_each(name);
        o.guard.iter_mut().for_each(name);
    }
}

/// What a launch of `kernel` does with order-dependent float sums: `holds(word)` tells whether the
/// region parameter word `word` points to holds such sums before the launch, `unknown` whether a
/// region the launch may read through an address the PTX does not tie to a parameter does.
/// `None` for a kernel the program lacks.
pub fn float_order(
    program: &Program,
    kernel: &str,
    holds: impl Fn(Word) -> bool,
    unknown: bool,
) -> Option<FloatOrder> {
    let k = program.kernel(kernel)?;
    let mut parsed = parse_ops(program, k);
    by_function(program, k, &mut parsed);
    let origin = origins(k, &parsed);
    // the regions its own float atomics add into
    let mut own: Option<BTreeSet<Word>> = Some(BTreeSet::new());
    for o in parsed
        .iter()
        .filter(|o| float_add_atomic(&o.op) && may_be_global(&o.op))
    {
        match (address_words(&origin, o), own.as_mut()) {
            (Some(w), Some(s)) => s.extend(w),
            _ => own = None,
        }
    }
    // a load through a parameter reads sums where that parameter's region holds them or its own
    // atomics add through it; one through an address the PTX does not tie to a parameter, where
    // any region the launch reaches holds them or its atomics add through a parameter (what its
    // atomics add through an address not told, as a callee's pointer argument, is not taken to be
    // read back in the same launch)
    let reads_sums = |o: &Op| match address_words(&origin, o) {
        Some(w) => w
            .iter()
            .any(|w| holds(*w) || own.as_ref().is_some_and(|s| s.contains(w))),
        None => unknown || own.as_ref().is_some_and(|s| !s.is_empty()),
    };
    let mut tainted: BTreeSet<&str> = BTreeSet::new();
    for o in &parsed {
        let global_load = is_load(&o.op) && may_be_global(&o.op);
        if (float_add_atomic(&o.op) && may_be_global(&o.op)) || (global_load && reads_sums(o)) {
            tainted.extend(o.dests.iter().map(String::as_str));
        }
    }
    let mut out = FloatOrder {
        decision: None,
        sums: own.clone(),
    };
    if !tainted.is_empty() {
        spread_all(k, &parsed, &mut tainted);
        let t = |r: &String| tainted.contains(r.as_str());
        // a tainted value passed to a call that was not inlined: what the callee does is not read
        let passed = parsed
            .iter()
            .any(|o| o.op.starts_with("st.param") && o.srcs.iter().filter(|r| !o.address.contains(r)).any(t));
        out.decision = parsed
            .iter()
            .zip(k.entry..)
            .find(|(o, _)| {
                let guarded = o.guard.as_ref().is_some_and(t);
                let address = o.address.iter().any(t);
                let value = o.srcs.iter().filter(|r| !o.address.contains(r)).any(t);
                // (shared, local and parameter memory pass a value on: loads from them are tainted)
                let integer_store = is_store(&o.op) && may_be_global(&o.op) && !is_float(&o.op) && value;
                let call = o.op.starts_with("call") && passed;
                guarded || address || integer_store || call
            })
            .map(|(_, pc)| pc);
        // its global stores of tainted values make their regions hold such sums too, and so do
        // its stores and atomics at tainted addresses (`atomicAdd(&count[bin], 1)` with the bin
        // picked by a sum): which elements they change follows the sums' last bits
        for o in &parsed {
            let value = o
                .srcs
                .iter()
                .filter(|r| !o.address.contains(r))
                .any(|r| tainted.contains(r.as_str()));
            let address = o.address.iter().any(|r| tainted.contains(r.as_str()));
            if is_store(&o.op) && may_be_global(&o.op) && (value || address) {
                match (address_words(&origin, o), out.sums.as_mut()) {
                    (Some(w), Some(s)) => s.extend(w),
                    _ => out.sums = None,
                }
            }
        }
    }
    Some(out)
}
