//! What an exact walk's draw leaves unknown: which card of its kind was drawn. Its name is handed out as an `Unseen` value, which says so when read.
//!
//! A walk that branched over every card would follow 36 × 35 × 34... paths for
//! a turn of draws. The face-down cards of one colour that were never drawn are
//! alike to any script that does not read their names: a draw then branches
//! over the kinds of card left (`Deck::kinds`), with the first card of the kind
//! standing for all of them. That is exact as long as nothing tells the card
//! from the others of its kind, so the name is given as an `Unseen` value:
//! compared with another drawn card's name (the same card?) or put to the bottom
//! by it, it is what it is; made text, compared with a word, or returned, it
//! tells the walk that the card was told apart, and the walk is done again
//! card by card. Anything else done with it is an error, and the walk is done
//! again too (where the error, if it is one, is the script's own).

use rhai::{Engine, EvalAltResult, ImmutableString};

use crate::script::error::fail;
use crate::script::handles::DeckRef;
use crate::script::state::Shared;

/// A drawn card's name, or its place in the deck, during a walk that drew it by kind.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Unseen {
    Name(ImmutableString),
    /// Which of the face-down cards it was: nothing a script can compare by kind.
    Place(i64),
    /// Text a compiled procedure made with such values in it (`the ${card.name} goes to the
    /// bottom`): known to be text that is not empty when a known piece is not, else unseen.
    Text(Vec<Piece>),
}

/// A piece of an `Unseen::Text`.
#[derive(Clone, Debug, PartialEq, Eq, Hash)]
pub enum Piece {
    Known(String),
    Unseen(Unseen),
}

impl Unseen {
    fn text(&self) -> String {
        match self {
            Unseen::Name(name) => name.to_string(),
            Unseen::Place(place) => place.to_string(),
            Unseen::Text(pieces) => pieces
                .iter()
                .map(|p| match p {
                    Piece::Known(text) => text.clone(),
                    Piece::Unseen(u) => u.text(),
                })
                .collect(),
        }
    }

    /// Whether the text this stands for cannot be empty, whatever card it stands for.
    fn never_empty(&self) -> bool {
        matches!(self, Unseen::Text(pieces) if pieces.iter().any(|p| matches!(p, Piece::Known(t) if !t.is_empty())))
    }
}

/// Whether `value` holds an `Unseen` value, at any depth.
pub fn holds_unseen(value: &rhai::Dynamic) -> bool {
    crate::script::plain::any_within(value, &|v| v.is::<Unseen>())
}

pub fn register(engine: &mut Engine, state: &Shared) {
    engine.register_type_with_name::<Unseen>("Unseen");
    let teller = |state: &Shared| {
        let state = state.clone();
        move || state.borrow_mut().cards.told_apart = true
    };
    for name in ["to_string", "to_debug"] {
        let told = teller(state);
        engine.register_fn(name, move |u: &mut Unseen| {
            told();
            u.text()
        });
    }
    // Two drawn cards' names: the same card or not, whatever stands for them.
    for (op, equal) in [("==", true), ("!=", false)] {
        let told = teller(state);
        engine.register_fn(op, move |a: &mut Unseen, b: Unseen| {
            if !matches!((&*a, &b), (Unseen::Name(_), Unseen::Name(_))) {
                told();
            }
            (*a == b) == equal
        });
        // With a word: told apart, unless it is "" and the text cannot be empty (`why != ""`).
        let told_a = teller(state);
        engine.register_fn(op, move |a: &mut Unseen, b: ImmutableString| {
            if !(b.is_empty() && a.never_empty()) {
                told_a();
            }
            (a.text() == b.as_str()) == equal
        });
        let told_b = teller(state);
        engine.register_fn(op, move |a: ImmutableString, b: Unseen| {
            if !(a.is_empty() && b.never_empty()) {
                told_b();
            }
            (b.text() == a.as_str()) == equal
        });
        // With anything else (a number, nothing): never equal, but Rhai would say so without
        // a word; a place compared with a number is told apart.
        let told_c = teller(state);
        engine.register_fn(op, move |a: &mut Unseen, b: rhai::Dynamic| {
            told_c();
            let same = matches!(&*a, Unseen::Place(p) if b.as_int() == Ok(*p));
            same == equal
        });
        let told_d = teller(state);
        engine.register_fn(op, move |a: rhai::Dynamic, b: Unseen| {
            told_d();
            let same = matches!(&b, Unseen::Place(p) if a.as_int() == Ok(*p));
            same == equal
        });
    }
    let st = state.clone();
    engine.register_fn("to_bottom", move |d: &mut DeckRef, card: Unseen| -> Result<(), Box<EvalAltResult>> {
        let Unseen::Name(name) = card else {
            st.borrow_mut().cards.told_apart = true;
            return fail("to_bottom takes a card's name, not its place in the deck");
        };
        d.edit().to_bottom(&name).or_else(|e| fail(e.to_string()))
    });
}

/// Whether code Rhai runs itself (`ast`: the walk's code and the procedures not compiled)
/// may look at what a value is without calling a function the walk hears of: a `switch`
/// (which files a value by its hash) or `type_of`. Then no card is drawn by kind.
pub fn rhai_may_tell_apart(ast: &rhai::AST) -> bool {
    let mut found = false;
    ast.walk(&mut |path: &[crate::script::syntax::ASTNode]| {
        found |= match path.last() {
            Some(crate::script::syntax::ASTNode::Stmt(crate::script::syntax::Stmt::Switch(..))) => true,
            Some(crate::script::syntax::ASTNode::Stmt(crate::script::syntax::Stmt::FnCall(call, _))) => {
                call.name == "type_of"
            }
            Some(crate::script::syntax::ASTNode::Expr(
                crate::script::syntax::Expr::FnCall(call, _) | crate::script::syntax::Expr::MethodCall(call, _),
            )) => call.name == "type_of",
            _ => false,
        };
        !found
    });
    found
}
