//! Which local slots a compiled function may still read after each statement, and at the head of each loop.
//!
//! Two states that differ only in a slot nobody reads again go the same way:
//! the walk clears such slots before comparing states, so they merge. The
//! analysis may call a slot live that is not (that only merges less); it never
//! calls a slot dead that is read again.

use ahash::AHashMap as HashMap;

use crate::script::compiled::code::{Code, Ex, Function, WordCompare};

/// A set of slots.
#[derive(Clone, Debug, Default, PartialEq, Eq)]
pub struct Slots(Vec<u64>);

impl Slots {
    pub fn insert(&mut self, slot: usize) {
        let (word, bit) = (slot / 64, slot % 64);
        if self.0.len() <= word {
            self.0.resize(word + 1, 0);
        }
        self.0[word] |= 1 << bit;
    }

    fn remove(&mut self, slot: usize) {
        if let Some(word) = self.0.get_mut(slot / 64) {
            *word &= !(1 << (slot % 64));
        }
    }

    fn union(&mut self, other: &Slots) {
        if self.0.len() < other.0.len() {
            self.0.resize(other.0.len(), 0);
        }
        for (a, b) in self.0.iter_mut().zip(&other.0) {
            *a |= b;
        }
    }

    /// Whether `slot` may be read.
    pub fn contains(&self, slot: usize) -> bool {
        self.0.get(slot / 64).is_some_and(|w| w & (1 << (slot % 64)) != 0)
    }

    /// The slots in the set, in order.
    pub fn iter(&self) -> impl Iterator<Item = usize> + '_ {
        self.0.iter().enumerate().flat_map(|(i, w)| (0..64).filter(move |b| w & (1 << b) != 0).map(move |b| i * 64 + b))
    }
}

/// The live slots after each statement of one function, by the statement's address.
#[derive(Debug, Default)]
pub struct Liveness {
    after: HashMap<usize, Slots>,
    loop_head: HashMap<usize, Slots>,
    /// The slots each `let` mentions in its value.
    let_reads: HashMap<usize, Vec<usize>>,
    /// The quiet notes the walk skips (see `quiet`), by address: they read nothing.
    quiet: ahash::AHashSet<usize>,
    /// While analysing code a compiled run works out whole (a `for` loop's body), where
    /// a quiet note is run as written, so reads what it mentions.
    in_run: bool,
    /// The slots read when the function ends: a method's receiver, which goes back to the caller.
    exit: Slots,
}

/// Where `break` and `continue` lead in the loop being analysed.
struct Loop<'a> {
    after: &'a Slots,
    head: &'a Slots,
}

impl Liveness {
    /// The liveness of `f`'s slots, where the statements `quiet` holds for are skipped by the walk.
    pub fn of(f: &Function, quiet: &dyn Fn(&Code) -> bool) -> Liveness {
        let mut live = Liveness::default();
        if f.method {
            live.exit.insert(0);
        }
        live.mark_quiet(&f.body, quiet);
        live.block(&f.body, live.exit.clone(), None);
        live
    }

    /// Notes the quiet statements among those the walk runs itself: a block's, an `if`'s
    /// arms', a loop's body's (not a `for` body's, which runs whole).
    fn mark_quiet(&mut self, code: &[Code], quiet: &dyn Fn(&Code) -> bool) {
        for stmt in code {
            match stmt {
                Code::If(_, then, otherwise, _) => {
                    self.mark_quiet(then, quiet);
                    self.mark_quiet(otherwise, quiet);
                }
                Code::While(_, body, _) | Code::Block(body) => self.mark_quiet(body, quiet),
                _ if quiet(stmt) => {
                    self.quiet.insert(address(stmt));
                }
                _ => {}
            }
        }
    }

    /// Whether the walk skips `stmt`, a quiet note.
    pub fn is_quiet(&self, stmt: &Code) -> bool {
        !self.quiet.is_empty() && self.quiet.contains(&address(stmt))
    }

    /// The slots read after `stmt` (all of them, conservatively, for a statement not analysed).
    pub fn after(&self, stmt: &Code) -> Option<&Slots> {
        self.after.get(&address(stmt))
    }

    /// The slots the value of the `let` statement `stmt` reads, when working it out writes
    /// none (beside taking a value read for the last time); none for another statement.
    pub fn let_reads(&self, stmt: &Code) -> Option<&[usize]> {
        self.let_reads.get(&address(stmt)).map(Vec::as_slice)
    }

    /// The slots live at the head of the loop `stmt`.
    pub fn at_loop_head(&self, stmt: &Code) -> Option<&Slots> {
        self.loop_head.get(&address(stmt))
    }

    fn block(&mut self, code: &[Code], mut live: Slots, in_loop: Option<&Loop>) -> Slots {
        for stmt in code.iter().rev() {
            self.after.insert(address(stmt), live.clone());
            live = self.stmt(stmt, live, in_loop);
        }
        live
    }

    /// The slots live before `stmt`, given those live after it.
    fn stmt(&mut self, stmt: &Code, after: Slots, in_loop: Option<&Loop>) -> Slots {
        let mut live = self.stmt_alone(stmt, after, in_loop);
        // An `if` or `switch` used as a value may `break` or `continue` the loop from inside.
        if let Some(l) = in_loop
            && nests_a_block(stmt)
        {
            live.union(l.after);
            live.union(l.head);
        }
        live
    }

    fn stmt_alone(&mut self, stmt: &Code, after: Slots, in_loop: Option<&Loop>) -> Slots {
        match stmt {
            Code::Expr(_) if !self.in_run && self.is_quiet(stmt) => after,
            Code::Expr(ex) => with_uses(after, ex),
            Code::Let(slot, ex) | Code::Set(slot, None, ex, _) => {
                if let Code::Let(..) = stmt
                    && writes_no_slot(ex)
                {
                    self.let_reads.insert(address(stmt), with_uses(Slots::default(), ex).iter().collect());
                }
                let mut live = after;
                live.remove(*slot);
                with_uses(live, ex)
            }
            Code::Set(slot, Some(_), ex, _) => {
                let mut live = with_uses(after, ex);
                live.insert(*slot);
                live
            }
            Code::SetAt(slot, steps, _, ex, _) => {
                let mut live = with_uses(after, ex);
                for index in steps.iter().filter_map(|s| s.index()) {
                    live = with_uses(live, index);
                }
                live.insert(*slot);
                live
            }
            Code::If(guard, then, otherwise, _) => {
                let mut live = self.block(then, after.clone(), in_loop);
                live.union(&self.block(otherwise, after, in_loop));
                with_uses(live, guard)
            }
            // A switch's arms are expressions, walked whole: every slot they mention is live.
            Code::Switch(value, table) => {
                let mut live = with_uses(after, value);
                for (guard, result) in &table.arms {
                    if let Some((guard, _)) = guard {
                        live = with_uses(live, guard);
                    }
                    live = with_uses(live, result);
                }
                live
            }
            Code::While(guard, body, _) => {
                // The head's live set is a fixed point: what the guard, the body and the loop's
                // exit read, with what the body reads at its own head on the next turn.
                let mut head = after.clone();
                loop {
                    let context = Loop { after: &after, head: &head };
                    let mut next = self.block(body, head.clone(), Some(&context));
                    next.union(&after);
                    if let Some((guard, _)) = guard {
                        next = with_uses(next, guard);
                    }
                    next.union(&head);
                    if next == head {
                        break;
                    }
                    head = next;
                }
                self.loop_head.insert(address(stmt), head.clone());
                head
            }
            Code::For(each) => {
                let mut head = after.clone();
                let in_run = std::mem::replace(&mut self.in_run, true);
                loop {
                    let context = Loop { after: &after, head: &head };
                    let mut next = self.block(&each.body, head.clone(), Some(&context));
                    next.remove(each.item);
                    if let Some(counter) = each.counter {
                        next.remove(counter);
                    }
                    next.union(&after);
                    next.union(&head);
                    if next == head {
                        break;
                    }
                    head = next;
                }
                self.in_run = in_run;
                with_uses(head, &each.items)
            }
            Code::Break => in_loop.map_or(after, |l| l.after.clone()),
            Code::Continue => in_loop.map_or(after, |l| l.head.clone()),
            Code::Return(ex) => ex.as_ref().map_or_else(|| self.exit.clone(), |ex| with_uses(self.exit.clone(), ex)),
            Code::Throw(ex, _) => ex.as_ref().map_or_else(Slots::default, |ex| with_uses(Slots::default(), ex)),
            Code::Block(code) => self.block(code, after, in_loop),
        }
    }
}

/// Whether a statement's expressions hold a block (an `if` or `switch` used as a value).
fn nests_a_block(stmt: &Code) -> bool {
    let mut found = false;
    let mut look = |ex: &Ex| found |= ex_nests_a_block(ex);
    match stmt {
        Code::Expr(ex) | Code::Let(_, ex) | Code::Set(_, _, ex, _) => look(ex),
        Code::SetAt(_, steps, _, ex, _) => {
            look(ex);
            steps.iter().filter_map(|s| s.index()).for_each(look);
        }
        Code::Switch(..) => return true,
        _ => {}
    }
    found
}

fn ex_nests_a_block(ex: &Ex) -> bool {
    matches!(ex, Ex::Block(_)) || ex.any_child(&mut ex_nests_a_block)
}

/// What running a statement may write among the slots.
pub enum Writes {
    Nothing,
    Slot(usize),
    /// Any slot (a compound statement, or one whose value may assign).
    Any,
}

/// What `stmt` may write among the slots (the world aside).
pub fn writes(stmt: &Code) -> Writes {
    match stmt {
        Code::Expr(ex) if writes_no_slot(ex) => Writes::Nothing,
        Code::Let(slot, ex) | Code::Set(slot, _, ex, _) if writes_no_slot(ex) => Writes::Slot(*slot),
        Code::SetAt(slot, steps, _, ex, _)
            if writes_no_slot(ex) && steps.iter().filter_map(|s| s.index()).all(writes_no_slot) =>
        {
            Writes::Slot(*slot)
        }
        _ => Writes::Any,
    }
}

/// Whether working out `ex` writes no slot: it holds no block (which may assign) and no
/// method call (which may change its receiver). A last read (`Move`) takes the value, but
/// the slot is dead after it.
fn writes_no_slot(ex: &Ex) -> bool {
    !matches!(ex, Ex::Block(_) | Ex::Method(..)) && !ex.any_child(&mut |e| !writes_no_slot(e))
}

fn address(stmt: &Code) -> usize {
    stmt as *const Code as usize
}

/// `live` with every slot `ex` mentions (in nested blocks too: conservatively, all of them).
fn with_uses(mut live: Slots, ex: &Ex) -> Slots {
    mentions(ex, &mut live);
    live
}

fn mentions(ex: &Ex, live: &mut Slots) {
    match ex {
        Ex::Var(slot) | Ex::Move(slot) => live.insert(*slot),
        Ex::WordCompare(compare) => {
            let WordCompare { slot, written, .. } = compare.as_ref();
            live.insert(*slot);
            mentions(written, live);
        }
        Ex::Block(code) => code.iter().for_each(|s| stmt_mentions(s, live)),
        _ => {
            ex.any_child(&mut |e| {
                mentions(e, live);
                false
            });
        }
    }
}

/// Every slot a statement mentions, read or written.
fn stmt_mentions(stmt: &Code, live: &mut Slots) {
    match stmt {
        Code::Expr(ex) => mentions(ex, live),
        Code::Let(slot, ex) | Code::Set(slot, _, ex, _) => {
            live.insert(*slot);
            mentions(ex, live);
        }
        Code::SetAt(slot, steps, _, ex, _) => {
            live.insert(*slot);
            mentions(ex, live);
            steps.iter().filter_map(|s| s.index()).for_each(|i| mentions(i, live));
        }
        Code::If(guard, then, otherwise, _) => {
            mentions(guard, live);
            then.iter().chain(otherwise).for_each(|s| stmt_mentions(s, live));
        }
        Code::Switch(value, table) => {
            mentions(value, live);
            for (guard, result) in &table.arms {
                if let Some((guard, _)) = guard {
                    mentions(guard, live);
                }
                mentions(result, live);
            }
        }
        Code::While(guard, body, _) => {
            if let Some((guard, _)) = guard {
                mentions(guard, live);
            }
            body.iter().for_each(|s| stmt_mentions(s, live));
        }
        Code::For(each) => {
            live.insert(each.item);
            if let Some(counter) = each.counter {
                live.insert(counter);
            }
            mentions(&each.items, live);
            each.body.iter().for_each(|s| stmt_mentions(s, live));
        }
        Code::Return(ex) | Code::Throw(ex, _) => {
            if let Some(ex) = ex {
                mentions(ex, live);
            }
        }
        Code::Break | Code::Continue => {}
        Code::Block(code) => code.iter().for_each(|s| stmt_mentions(s, live)),
    }
}
