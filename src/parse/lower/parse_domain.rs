//! Domains: their sections, predicate skeletons and function declarations.

use super::parse_sections::Definition;
use super::{Lower, P, R, Seen, next, unexpected};
use crate::ast::*;
use crate::parse::grammar::Rule;

impl<'s> Lower<'s> {
    pub(super) fn domain(&mut self, pair: P<'s>) -> R<Domain> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        next(&mut inner, at, "`define`")?;
        next(&mut inner, at, "`domain`")?;
        let name = self.name(&next(&mut inner, at, "a domain name")?);
        let mut domain = Domain {
            name,
            requirements: Vec::new(),
            types: Vec::new(),
            constants: Vec::new(),
            predicates: Vec::new(),
            functions: Vec::new(),
            constraints: None,
            structures: Vec::new(),
            span: at,
        };
        let mut seen = Seen::default();
        for section in inner {
            let section_span = self.span(&section);
            let keyword = section
                .clone()
                .into_inner()
                .next()
                .map(|k| k.as_str().to_string())
                .unwrap_or_default();
            match section.as_rule() {
                Rule::requirements_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    domain.requirements.extend(self.requirements(section));
                }
                Rule::types_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let list = self.list_section(section)?;
                    domain.types.extend(list);
                }
                Rule::constants_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let list = self.list_section(section)?;
                    domain.constants.extend(list);
                }
                Rule::predicates_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    for item in section.into_inner().skip(1) {
                        match item.as_rule() {
                            Rule::atomic_skeleton => domain.predicates.push(self.skeleton(item)?),
                            _ => self.bad(&item, Rule::atomic_skeleton_exact, "predicate"),
                        }
                    }
                }
                Rule::functions_def => {
                    self.repeated(&mut seen, &keyword, section_span);
                    let decls = section.into_inner().nth(1);
                    if let Some(decls) = decls {
                        self.functions(decls, &mut domain.functions)?;
                    }
                }
                Rule::constraints_def => {
                    let gd = self.slot_section(section);
                    if self.single(&mut seen, &keyword, section_span) {
                        domain.constraints = gd;
                    }
                }
                Rule::action_def => {
                    let action = self.action(section, "action")?;
                    domain.structures.push(Structure::Action(action));
                }
                Rule::process_def => {
                    let action = self.action(section, "process")?;
                    domain.structures.push(Structure::Process(action));
                }
                Rule::event_def => {
                    let action = self.action(section, "event")?;
                    domain.structures.push(Structure::Event(action));
                }
                Rule::durative_action_def => {
                    let action = self.durative_action(section)?;
                    domain.structures.push(Structure::DurativeAction(action));
                }
                Rule::derived_def => {
                    let derived = self.derived(section)?;
                    if let Some(derived) = derived {
                        domain.structures.push(Structure::Derived(derived));
                    }
                }
                Rule::global_constraint_def => {
                    let constraint = self.global_constraint(section)?;
                    domain.structures.push(Structure::Constraint(constraint));
                }
                Rule::bad_domain_section => self.bad_section(&section, Definition::Domain),
                _ => return unexpected(&section, "a domain section"),
            }
        }
        Ok(domain)
    }

    pub(super) fn skeleton(&self, pair: P) -> R<AtomicSkeleton> {
        let at = self.span(&pair);
        let mut inner = pair.into_inner();
        let name = self.name(&next(&mut inner, at, "a predicate name")?);
        let parameters = self.typed_variables(next(&mut inner, at, "parameters")?)?;
        Ok(AtomicSkeleton {
            name,
            parameters,
            span: at,
        })
    }

    fn functions(&mut self, decls: P<'s>, out: &mut Vec<FunctionDecl>) -> R<()> {
        for group in decls.into_inner() {
            if group.as_rule() != Rule::function_group {
                self.bad(&group, Rule::function_decl_exact, "function declaration");
                continue;
            }
            let mut skeletons = Vec::new();
            let mut ty = None;
            for member in group.into_inner() {
                match member.as_rule() {
                    Rule::atomic_skeleton => skeletons.push(self.skeleton(member)?),
                    _ => ty = Some(self.type_spec(member)?),
                }
            }
            out.extend(skeletons.into_iter().map(|s| FunctionDecl {
                name: s.name,
                parameters: s.parameters,
                ty: ty.clone(),
                span: s.span,
            }));
        }
        Ok(())
    }
}
