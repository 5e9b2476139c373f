//! What a widget's store may hold: its linear memories together under one
//! cap (a component may have several, and each could otherwise take the
//! whole cap), few memories, tables and core instances, and few host
//! resources (WASI's streams and timers live in the host's memory, outside
//! the cap, so their number is bounded instead).

use wasmtime::ResourceLimiter;

/// Tables are bounded too, though a generous bound: they hold function references.
const TABLE_ELEMENTS: usize = 100_000;
/// A component has a few of each; the count keeps a hostile one's small.
const MEMORIES: usize = 8;
const TABLES: usize = 64;
const INSTANCES: usize = 256;
/// Host resources a widget may hold at once (stdio streams, timers): a
/// widget needs a handful.
pub const RESOURCES: usize = 1024;

pub struct StoreLimiter {
    memory_cap: usize,
    memory_in_use: usize,
    /// What the widget wanted when it was refused, to name the cause of the trap.
    pub refused: Option<usize>,
}

impl StoreLimiter {
    pub fn new(memory_cap: usize) -> StoreLimiter {
        StoreLimiter { memory_cap, memory_in_use: 0, refused: None }
    }
}

impl ResourceLimiter for StoreLimiter {
    fn memory_growing(&mut self, current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        let in_use = self.memory_in_use - current.min(self.memory_in_use) + desired;
        if in_use > self.memory_cap {
            self.refused = Some(in_use);
            // An error (not `Ok(false)`) traps at once: a Rust guest would
            // otherwise abort with a less telling message.
            wasmtime::bail!("memory cap reached");
        }
        self.memory_in_use = in_use;
        Ok(true)
    }

    fn table_growing(&mut self, _current: usize, desired: usize, _maximum: Option<usize>) -> wasmtime::Result<bool> {
        Ok(desired <= TABLE_ELEMENTS)
    }

    fn memories(&self) -> usize {
        MEMORIES
    }

    fn tables(&self) -> usize {
        TABLES
    }

    fn instances(&self) -> usize {
        INSTANCES
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use wasmtime::{Engine, Instance, Module, Store};

    const PAGE: usize = 64 << 10;

    /// Three memories of one page each, and a function that grows the one
    /// it is given by `pages`.
    const THREE_MEMORIES: &str = r#"(module
        (memory $a 1) (memory $b 1) (memory $c 1)
        (func (export "grow") (param $memory i32) (param $pages i32) (result i32)
            (if (result i32) (i32.eqz (local.get $memory))
                (then (memory.grow $a (local.get $pages)))
                (else (if (result i32) (i32.eq (local.get $memory) (i32.const 1))
                    (then (memory.grow $b (local.get $pages)))
                    (else (memory.grow $c (local.get $pages))))))))"#;

    fn store(engine: &Engine, cap: usize) -> Store<StoreLimiter> {
        let mut store = Store::new(engine, StoreLimiter::new(cap));
        store.limiter(|limiter| limiter);
        store
    }

    #[test]
    fn the_cap_is_on_the_sum_of_the_memories() {
        let engine = Engine::default();
        let module = Module::new(&engine, wat::parse_str(THREE_MEMORIES).unwrap()).unwrap();
        let mut store = store(&engine, 10 * PAGE);
        let instance = Instance::new(&mut store, &module, &[]).unwrap();
        let grow = instance.get_typed_func::<(i32, i32), i32>(&mut store, "grow").unwrap();
        assert_eq!(grow.call(&mut store, (0, 3)).unwrap(), 1, "4 pages in the first, 6 in all");
        assert_eq!(grow.call(&mut store, (1, 3)).unwrap(), 1, "4 in the second, 9 in all");
        assert!(grow.call(&mut store, (2, 2)).is_err(), "11 in all is past the cap, though the third has 3");
        assert_eq!(store.data().refused, Some(11 * PAGE));
    }

    #[test]
    fn memories_past_the_count_are_refused() {
        let engine = Engine::default();
        let many = format!("(module {})", "(memory 0) ".repeat(MEMORIES + 1));
        let module = Module::new(&engine, wat::parse_str(many).unwrap()).unwrap();
        let error = Instance::new(&mut store(&engine, 16 << 20), &module, &[]).unwrap_err();
        assert!(format!("{error:#}").contains("memory"), "{error:#}");
    }
}
