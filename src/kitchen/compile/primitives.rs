//! The effect primitives as writes: each primitive of semantics §5 and §6 recorded in order,
//! every later one reading what the earlier ones left (regressed, see `ir`).

use super::action::ActionLowering;
use super::flavour::Flavour;
use super::ir::{Formula, Term, and, atom, eq, exists, not, or};
use super::vocabulary::{
    IN_LEVELS, NOT_IN_A_DISH, OBJECT, PLACE, PROPERTY, SITE, STATUS, flag_predicate,
    object_variable, property, status,
};
use crate::kitchen::data::world::{Creation, Primitive, PrimitiveFamily};

/// COMBINE's reads of its ingredients (see `read_ingredients`), over the variables `?i` (an
/// ingredient) and `?v` (a property, state or source).
struct IngredientReads {
    ingredient_name: String,
    value_name: String,
    properties_from: Formula,
    states_from: Formula,
    contamination_from: Formula,
    parts_from: Formula,
    dirty: Formula,
    container_states: Vec<(String, Formula)>,
}

impl ActionLowering<'_> {
    /// Applies an effect primitive under a condition (a test read before the primitive).
    pub fn guarded_primitive(&mut self, condition: Formula, primitive: &Primitive) {
        let before = self.writes.len();
        self.primitive(primitive);
        for write in &mut self.writes[before..] {
            write.condition = and(vec![condition.clone(), write.condition.clone()]);
        }
    }

    /// Where `remove_from` and a creation without its parent put an object (`counter`).
    fn drop_place(&self) -> Term {
        Term::constant(&self.world.config.places.drop)
    }

    /// Semantics §5 detach: out of the contents of the place the location names.
    fn detach(&mut self, x: &Term) {
        let place = self.fresh.next("p");
        let container = self.fresh.next("k");
        if self.flavour == Flavour::Planning {
            // The same, quantified over fewer values: an object resolves to itself alone (the
            // planning flavour locates nothing at a phantom), a bare place to its `_1` object.
            // Over every place and object, the grounder tried places times objects values for
            // every PUT_IN and PUT_ON, most of its work.
            let at_object = self.now(&atom("loc", vec![x.clone(), Term::Var(container.clone())]));
            self.remove_copy(
                vec![object_variable(&container)],
                at_object,
                x,
                &Term::Var(container.clone()),
            );
            let container = self.fresh.next("k");
            let at_site = self.now(&and(vec![
                atom("loc", vec![x.clone(), Term::Var(place.clone())]),
                atom(
                    "resolves",
                    vec![Term::Var(place.clone()), Term::Var(container.clone())],
                ),
            ]));
            self.remove_copy(
                vec![(place, SITE.into()), object_variable(&container)],
                at_site,
                x,
                &Term::Var(container),
            );
            return;
        }
        let condition = self.now(&and(vec![
            atom("loc", vec![x.clone(), Term::Var(place.clone())]),
            atom(
                "resolves",
                vec![Term::Var(place.clone()), Term::Var(container.clone())],
            ),
        ]));
        self.remove_copy(
            vec![(place, PLACE.into()), object_variable(&container)],
            condition,
            x,
            &Term::Var(container),
        );
    }

    /// Sets `x`'s location to `place` (replacing every other), under a condition.
    fn set_location(
        &mut self,
        x: &Term,
        place: Term,
        condition: Formula,
        extra: Vec<(String, String)>,
    ) {
        self.delete_all("loc", x, PLACE, condition.clone(), extra.clone());
        self.write(extra, condition, "loc", vec![x.clone(), place], true);
    }

    /// Semantics §5 cook: `raw` becomes `cooked`, contamination is cleared.
    fn cook(&mut self, x: &Term, condition: Formula, extra: Vec<(String, String)>) {
        self.write(
            extra.clone(),
            condition.clone(),
            "is",
            vec![x.clone(), status("raw")],
            false,
        );
        self.write(
            extra.clone(),
            condition.clone(),
            "is",
            vec![x.clone(), status("cooked")],
            true,
        );
        self.delete_all("contam", x, OBJECT, condition, extra);
    }

    /// Moves every content of `source` to `target` (semantics §5 move_contents).
    fn move_contents(&mut self, source: &Term, target: &Term) {
        let item_name = self.fresh.next("i");
        let item = Term::Var(item_name.clone());
        let inside = self.now(&atom("in", vec![item.clone(), source.clone()]));
        let vars = vec![object_variable(&item_name)];
        if self.flavour == Flavour::Audit {
            // Every copy moves: the target's count becomes the sum (up to the top level).
            let from = self.copies(vec![item.clone(), source.clone()]);
            self.write(
                vars.clone(),
                inside.clone(),
                "in",
                vec![item.clone(), source.clone()],
                false,
            );
            // Read after the source is emptied: the target may be the source.
            let to = self.copies(vec![item.clone(), target.clone()]);
            let present = self.now(&atom("present", vec![target.clone()]));
            for (k, level) in IN_LEVELS.iter().enumerate() {
                // At least k+1 copies: a+1 in the target and k-a in the source.
                let mut ways = vec![to[k].clone(), from[k].clone()];
                for a in 0..k {
                    ways.push(and(vec![to[a].clone(), from[k - 1 - a].clone()]));
                }
                let at_least = and(vec![present.clone(), or(ways)]);
                self.push(
                    vars.clone(),
                    at_least,
                    level,
                    vec![item.clone(), target.clone()],
                    true,
                );
            }
        } else {
            self.write(
                vars.clone(),
                inside.clone(),
                "in",
                vec![item.clone(), source.clone()],
                false,
            );
            self.write(
                vars.clone(),
                inside.clone(),
                "in",
                vec![item.clone(), target.clone()],
                true,
            );
        }
        self.set_location(&item, target.clone(), inside, vars);
    }

    /// Creates the action's new object (its parameter `?new`) with the creation's properties,
    /// inherited properties and states, at the parent's place or on the drop place.
    fn create(
        &mut self,
        parent: Option<&Term>,
        creation: &Creation,
        at_parent: bool,
    ) -> Option<Term> {
        let created = self.created.clone()?;
        self.add("present", vec![created.clone()]);
        for given in &creation.properties {
            self.add("has", vec![created.clone(), property(given)]);
        }
        if let Some(parent) = parent {
            for inherited in &creation.inherit {
                let condition = self.now(&atom("has", vec![parent.clone(), property(inherited)]));
                self.write(
                    Vec::new(),
                    condition,
                    "has",
                    vec![created.clone(), property(inherited)],
                    true,
                );
            }
        }
        let states = if creation.states.is_empty() {
            vec![creation.value.clone()]
        } else {
            creation.states.clone()
        };
        for s in &states {
            self.add("is", vec![created.clone(), status(s)]);
        }
        match parent {
            Some(parent) if at_parent => {
                let place = self.fresh.next("p");
                let condition =
                    self.now(&atom("loc", vec![parent.clone(), Term::Var(place.clone())]));
                self.write(
                    vec![(place.clone(), PLACE.into())],
                    condition,
                    "loc",
                    vec![created.clone(), Term::Var(place)],
                    true,
                );
            }
            _ => self.add("loc", vec![created.clone(), self.drop_place()]),
        }
        Some(created)
    }

    /// Records the writes of an effect primitive (semantics §5, §6).
    pub fn primitive(&mut self, primitive: &Primitive) {
        match primitive.family() {
            PrimitiveFamily::State => self.state_primitive(primitive),
            PrimitiveFamily::Placement => self.placement_primitive(primitive),
            PrimitiveFamily::Contamination => self.contamination_primitive(primitive),
            PrimitiveFamily::Creation => self.creation_primitive(primitive),
        }
    }

    /// States, the hand and the flags.
    fn state_primitive(&mut self, primitive: &Primitive) {
        use Primitive as P;
        match primitive {
            P::AddState(r, s) => {
                if let Some(x) = self.role(*r) {
                    self.add("is", vec![x, status(s)]);
                }
            }
            P::RemoveState(r, s) => {
                if let Some(x) = self.role(*r) {
                    self.delete("is", vec![x, status(s)]);
                }
            }
            P::ReplaceState(r, from, to) => {
                if let Some(x) = self.role(*r) {
                    self.delete("is", vec![x.clone(), status(from)]);
                    self.add("is", vec![x, status(to)]);
                }
            }
            // States carrying a bare value (`at_350F`) are read by nothing: not modelled.
            P::AddValueState(..) | P::SetAgentLocation(_) => {}
            P::SetStates(r, states) => {
                if let Some(x) = self.role(*r) {
                    self.delete_all("is", &x, STATUS, Formula::True, Vec::new());
                    for s in states {
                        self.add("is", vec![x.clone(), status(s)]);
                    }
                }
            }
            P::SetHeld(r) => {
                self.release();
                if let Some(x) = self.role(*r) {
                    self.add("held", vec![x]);
                }
            }
            P::Release => self.release(),
            P::ReleaseIfHeld(r) => {
                if let Some(x) = self.role(*r) {
                    self.delete("held", vec![x]);
                }
            }
            P::SetFlag(f) => self.add(&flag_predicate(f), Vec::new()),
            P::ClearFlag(f) => self.delete(&flag_predicate(f), Vec::new()),
            _ => {}
        }
    }

    /// Locations and contents.
    fn placement_primitive(&mut self, primitive: &Primitive) {
        use Primitive as P;
        match primitive {
            P::MoveInto(x, c) => {
                if let (Some(x), Some(c)) = (self.role(*x), self.role(*c)) {
                    self.detach(&x);
                    self.add("in", vec![x.clone(), c.clone()]);
                    self.set_location(&x, c.clone(), Formula::True, Vec::new());
                    self.delete("is", vec![c, status("empty")]);
                }
            }
            P::PlaceOn(x, surface) => {
                if let (Some(x), Some(surface)) = (self.role(*x), self.role(*surface)) {
                    self.detach(&x);
                    self.set_location(&x, surface, Formula::True, Vec::new());
                }
            }
            P::RemoveFrom(x, container) => {
                if let (Some(x), Some(container)) = (self.role(*x), self.role(*container)) {
                    self.remove_copy(Vec::new(), Formula::True, &x, &container);
                    self.set_location(&x, self.drop_place(), Formula::True, Vec::new());
                }
            }
            P::PourInto(source, target) => {
                if let (Some(source), Some(target)) = (self.role(*source), self.role(*target)) {
                    let receptacle =
                        self.now(&atom("has", vec![source.clone(), property("receptacle")]));
                    let before = self.writes.len();
                    self.move_contents(&source, &target);
                    for write in &mut self.writes[before..] {
                        write.condition = and(vec![receptacle.clone(), write.condition.clone()]);
                    }
                    self.write(
                        Vec::new(),
                        receptacle.clone(),
                        "is",
                        vec![source.clone(), status("empty")],
                        true,
                    );
                    self.write(
                        Vec::new(),
                        not(receptacle),
                        "in",
                        vec![source, target.clone()],
                        true,
                    );
                    self.delete("is", vec![target, status("empty")]);
                }
            }
            P::MoveContents(source, target) => {
                if let (Some(source), Some(target)) = (self.role(*source), self.role(*target)) {
                    self.move_contents(&source, &target);
                }
            }
            P::Fill(vessel, source) => {
                if let (Some(vessel), Some(source)) = (self.role(*vessel), self.role(*source)) {
                    self.add("in", vec![source, vessel.clone()]);
                    self.delete("is", vec![vessel.clone(), status("empty")]);
                    self.add("is", vec![vessel, status("filled")]);
                }
            }
            P::Drain(vessel) => {
                if let Some(vessel) = self.role(*vessel) {
                    let item_name = self.fresh.next("i");
                    let item = Term::Var(item_name.clone());
                    let pourable_inside = self.now(&and(vec![
                        atom("in", vec![item.clone(), vessel.clone()]),
                        atom("has", vec![item.clone(), property("pourable")]),
                    ]));
                    let vars = vec![object_variable(&item_name)];
                    self.write(
                        vars.clone(),
                        pourable_inside.clone(),
                        "in",
                        vec![item.clone(), vessel.clone()],
                        false,
                    );
                    self.delete_all("loc", &item, PLACE, pourable_inside, vars);
                    self.add("is", vec![vessel, status("drained")]);
                }
            }
            P::Dispose(x) => {
                if let Some(x) = self.role(*x) {
                    self.set_location(
                        &x,
                        Term::constant(&self.world.config.places.disposal),
                        Formula::True,
                        Vec::new(),
                    );
                    self.delete_all("is", &x, STATUS, Formula::True, Vec::new());
                    self.add("is", vec![x, status("disposed")]);
                }
                self.release();
            }
            _ => {}
        }
    }

    /// Cooking and contamination.
    fn contamination_primitive(&mut self, primitive: &Primitive) {
        use Primitive as P;
        match primitive {
            P::Cook(x) => {
                if let Some(x) = self.role(*x) {
                    self.cook(&x, Formula::True, Vec::new());
                }
            }
            P::Sterilise(vessel) => {
                if let Some(vessel) = self.role(*vessel) {
                    let item_name = self.fresh.next("i");
                    let item = Term::Var(item_name.clone());
                    let inside = self.now(&atom("in", vec![item.clone(), vessel.clone()]));
                    self.delete_all("contam", &vessel, OBJECT, Formula::True, Vec::new());
                    self.cook(&item, inside, vec![object_variable(&item_name)]);
                }
            }
            P::ClearContam(x) => {
                if let Some(x) = self.role(*x) {
                    self.delete_all("contam", &x, OBJECT, Formula::True, Vec::new());
                }
            }
            P::ClearHands => {
                let source_name = self.fresh.next("v");
                self.write(
                    vec![object_variable(&source_name)],
                    Formula::True,
                    "hands",
                    vec![Term::Var(source_name)],
                    false,
                );
            }
            P::ContaminateHands(x) => {
                if let Some(x) = self.role(*x) {
                    let condition = self.now(&self.is_source(&x));
                    self.write(Vec::new(), condition, "hands", vec![x], true);
                }
            }
            P::SpreadFromHands(target) => {
                if let Some(target) = self.role(*target) {
                    let source_name = self.fresh.next("s");
                    let source = Term::Var(source_name.clone());
                    let condition = self.now(&and(vec![
                        atom("hands", vec![source.clone()]),
                        not(atom("hands", vec![target.clone()])),
                        atom("present", vec![target.clone()]),
                    ]));
                    self.write(
                        vec![object_variable(&source_name)],
                        condition,
                        "contam",
                        vec![target, source],
                        true,
                    );
                }
            }
            P::SpreadContam(from, to) => {
                if let (Some(from), Some(to)) = (self.role(*from), self.role(*to)) {
                    let source_name = self.fresh.next("s");
                    let source = Term::Var(source_name.clone());
                    let condition = self.now(&and(vec![
                        atom("contam", vec![from, source.clone()]),
                        atom("present", vec![to.clone()]),
                    ]));
                    self.write(
                        vec![object_variable(&source_name)],
                        condition,
                        "contam",
                        vec![to, source],
                        true,
                    );
                }
            }
            P::MarkSource(x, carrier) => {
                if let (Some(x), Some(carrier)) = (self.role(*x), self.role(*carrier)) {
                    let condition = self.now(&and(vec![
                        self.is_source(&x),
                        atom("present", vec![carrier.clone()]),
                    ]));
                    self.write(Vec::new(), condition, "contam", vec![carrier, x], true);
                }
            }
            _ => {}
        }
    }

    /// Derivatives, byproducts, products and COMBINE.
    fn creation_primitive(&mut self, primitive: &Primitive) {
        use Primitive as P;
        match primitive {
            P::Derive(x, how) => {
                if let Some(x) = self.role(*x) {
                    self.create(Some(&x), how, true);
                }
            }
            P::Byproduct(x, creation) => {
                if let Some(x) = self.role(*x) {
                    self.create(Some(&x), creation, false);
                }
            }
            P::Product(container, creation) => {
                if let Some(container) = self.role(*container)
                    && let Some(created) = self.create(None, creation, false)
                {
                    self.delete_all("loc", &created, PLACE, Formula::True, Vec::new());
                    self.add("loc", vec![created.clone(), container.clone()]);
                    self.add("in", vec![created, container]);
                }
            }
            P::CombineAs(container, product, creation) => {
                if let (Some(container), Some(product)) =
                    (self.role(*container), self.role(*product))
                {
                    self.combine(&container, &product, creation);
                }
            }
            P::GrateInto(x, target, creation) => {
                if let Some(x) = self.role(*x)
                    && let Some(created) = self.create(Some(&x), creation, true)
                    && let Some(target) = self.role(*target)
                {
                    self.add("in", vec![created.clone(), target.clone()]);
                    self.set_location(&created, target, Formula::True, Vec::new());
                }
            }
            _ => {}
        }
    }

    /// The hand lets go of whatever it holds.
    fn release(&mut self) {
        let held = self.fresh.next("v");
        self.write(
            vec![object_variable(&held)],
            Formula::True,
            "held",
            vec![Term::Var(held)],
            false,
        );
    }

    /// What COMBINE reads, all before the product exists: for every ingredient `?i` in the
    /// container and every value `?v`, whether the product takes `?v` as a property, a state
    /// or a source of contamination, and whether `?i` becomes a part of it; whether the product
    /// is dirty; and the container's states it takes.
    fn read_ingredients(&mut self, container: &Term, creation: &Creation) -> IngredientReads {
        let ingredient_name = self.fresh.next("i");
        let ingredient = Term::Var(ingredient_name.clone());
        let inside = atom("in", vec![ingredient.clone(), container.clone()]);
        let value_name = self.fresh.next("v");
        let value = Term::Var(value_name.clone());
        // Read everything first: the ingredients as they are before the product exists.
        let mut property_read = vec![
            inside.clone(),
            atom("has", vec![ingredient.clone(), value.clone()]),
        ];
        // Planning flavour: no ingredient is a tool or a vessel (`dish_of_food_rules`), so the
        // product never takes those properties. Said as equalities, which the grounder decides
        // statically, so that it does not count the product among the tools and vessels of
        // every other action.
        if self.flavour == Flavour::Planning {
            property_read.extend(NOT_IN_A_DISH.iter().map(|p| not(eq(&value, &property(p)))));
        }
        let properties_from = self.now(&and(property_read));
        // Planning flavour: being served does not pass from an ingredient to the product (a
        // planner served the oil, then combined it into the dish it had to serve).
        let mut not_inherited = vec![not(eq(&value, &status("dirty")))];
        // Nor do the states the goal asks of the dish itself (`baked`): those it gets by
        // acting on the product, not by baking the egg before combining.
        if self.flavour == Flavour::Planning {
            not_inherited.push(not(eq(&value, &status("served"))));
            not_inherited.push(not(atom("own-state", vec![value.clone()])));
        }
        let states_from = self.now(&and([
            vec![
                inside.clone(),
                atom("is", vec![ingredient.clone(), value.clone()]),
            ],
            not_inherited,
        ]
        .concat()));
        let contamination_from = self.now(&and(vec![
            inside.clone(),
            atom("contam", vec![ingredient.clone(), value.clone()]),
        ]));
        let parts_from = self.now(&and(vec![
            inside.clone(),
            atom("has", vec![ingredient.clone(), property("grabbable")]),
        ]));
        let dirty = self.now(&exists(
            vec![object_variable(&ingredient_name)],
            and(vec![
                inside.clone(),
                atom("present", vec![ingredient.clone()]),
                atom("is", vec![ingredient.clone(), status("dirty")]),
                not(and(vec![
                    atom("is", vec![ingredient.clone(), status("cooked")]),
                    atom("has", vec![ingredient.clone(), property("protein")]),
                ])),
            ]),
        ));
        let container_states: Vec<(String, Formula)> = creation
            .states
            .iter()
            .map(|s| {
                (
                    s.clone(),
                    self.now(&atom("is", vec![container.clone(), status(s)])),
                )
            })
            .collect();
        IngredientReads {
            ingredient_name,
            value_name,
            properties_from,
            states_from,
            contamination_from,
            parts_from,
            dirty,
            container_states,
        }
    }

    /// Semantics §5, COMBINE: the product unites its ingredients, and overwrites an earlier
    /// product of the same id.
    fn combine(&mut self, container: &Term, product: &Term, creation: &Creation) {
        let IngredientReads {
            ingredient_name,
            value_name,
            properties_from,
            states_from,
            contamination_from,
            parts_from,
            dirty,
            container_states,
        } = self.read_ingredients(container, creation);
        let ingredient = Term::Var(ingredient_name.clone());
        let value = Term::Var(value_name.clone());
        // The overwrite: the earlier record is gone (in the planning flavour the product does
        // not exist yet, so there is none).
        let overwrite = if self.flavour == Flavour::Planning {
            &[][..]
        } else {
            &[
                ("has", PROPERTY),
                ("is", STATUS),
                ("contam", OBJECT),
                ("loc", PLACE),
            ][..]
        };
        for &(p, ty) in overwrite {
            self.delete_all(p, product, ty, Formula::True, Vec::new());
        }
        self.add("present", vec![product.clone()]);
        let both = vec![
            object_variable(&ingredient_name),
            (value_name.clone(), PROPERTY.into()),
        ];
        self.write(
            both,
            properties_from,
            "has",
            vec![product.clone(), value.clone()],
            true,
        );
        let both = vec![
            object_variable(&ingredient_name),
            (value_name.clone(), STATUS.into()),
        ];
        self.write(
            both,
            states_from,
            "is",
            vec![product.clone(), value.clone()],
            true,
        );
        let both = vec![
            object_variable(&ingredient_name),
            object_variable(&value_name),
        ];
        self.write(
            both,
            contamination_from,
            "contam",
            vec![product.clone(), value],
            true,
        );
        // Planning flavour: what the product is made of (what one can carry: not the tap a
        // FILL left in the contents), for the goal's dish; those are not touched again.
        if self.flavour == Flavour::Planning {
            self.write(
                vec![object_variable(&ingredient_name)],
                parts_from,
                "part-of",
                vec![ingredient.clone(), product.clone()],
                true,
            );
        }
        self.write(
            Vec::new(),
            dirty,
            "is",
            vec![product.clone(), status("dirty")],
            true,
        );
        for p in &creation.properties {
            self.add("has", vec![product.clone(), property(p)]);
        }
        for (s, condition) in container_states {
            self.write(
                Vec::new(),
                condition,
                "is",
                vec![product.clone(), status(&s)],
                true,
            );
        }
        self.add("loc", vec![product.clone(), container.clone()]);
        self.add("in", vec![product.clone(), container.clone()]);
    }
}
