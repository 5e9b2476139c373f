//! CPU and memory use read with sysinfo, where Obi has no reader of its own.

use super::MemoryUsage;
use anyhow::Context;
use sysinfo::{CpuRefreshKind, MemoryRefreshKind, RefreshKind, System};

pub struct Sampler {
    system: System,
}

impl Sampler {
    pub fn new() -> anyhow::Result<Sampler> {
        let refresh = RefreshKind::nothing().with_cpu(CpuRefreshKind::nothing().with_usage());
        // The first CPU reading is a baseline; usage is measured from here on.
        let system = System::new_with_specifics(refresh).context("reading system metrics")?;
        Ok(Sampler { system })
    }

    /// Average use of all cores since the previous call, 0..=100.
    pub fn cpu_usage(&mut self) -> f32 {
        self.system.refresh_cpu_usage();
        self.system.global_cpu_usage()
    }

    pub fn memory(&mut self) -> Option<MemoryUsage> {
        self.system.refresh_memory_specifics(MemoryRefreshKind::nothing().with_ram());
        Some(MemoryUsage {
            total_bytes: self.system.total_memory(),
            used_bytes: self.system.used_memory(),
            available_bytes: self.system.available_memory(),
        })
    }
}
