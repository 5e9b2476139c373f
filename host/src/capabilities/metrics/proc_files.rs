//! CPU and memory use read from `/proc/stat` and `/proc/meminfo`, each kept
//! open and read again from its start: a bar reads them every second, and
//! opening them anew each time cost more than the reading.

use super::MemoryUsage;
use anyhow::Context;
use std::fs::File;
use std::os::unix::fs::FileExt;

pub struct Sampler {
    stat: ProcFile,
    meminfo: ProcFile,
    /// Busy and total jiffies of all cores at the last reading.
    last_cpu: CpuTimes,
    usage: f32,
}

impl Sampler {
    pub fn new() -> anyhow::Result<Sampler> {
        let mut stat = ProcFile::open("/proc/stat")?;
        // The first reading is a baseline; usage is measured from here on.
        let last_cpu = cpu_times(stat.read()?).context("no `cpu` line in /proc/stat")?;
        Ok(Sampler { stat, meminfo: ProcFile::open("/proc/meminfo")?, last_cpu, usage: 0.0 })
    }

    /// Average use of all cores since the previous call, 0..=100; the last
    /// one when `/proc/stat` cannot be read or no time has passed.
    pub fn cpu_usage(&mut self) -> f32 {
        let Some(now) = self.stat.read().ok().and_then(cpu_times) else { return self.usage };
        let (busy, total) =
            (now.busy.saturating_sub(self.last_cpu.busy), now.total.saturating_sub(self.last_cpu.total));
        if total > 0 {
            self.usage = (busy as f64 / total as f64 * 100.0) as f32;
            self.last_cpu = now;
        }
        self.usage
    }

    /// None when `/proc/meminfo` cannot be read or lacks a figure.
    pub fn memory(&mut self) -> Option<MemoryUsage> {
        self.meminfo.read().ok().and_then(memory_usage)
    }
}

/// A file of `/proc`, whose every read from offset 0 has the kernel write it out anew.
struct ProcFile {
    file: File,
    path: &'static str,
    text: String,
}

impl ProcFile {
    fn open(path: &'static str) -> anyhow::Result<ProcFile> {
        let file = File::open(path).with_context(|| format!("opening {path}"))?;
        Ok(ProcFile { file, path, text: String::with_capacity(4096) })
    }

    fn read(&mut self) -> anyhow::Result<&str> {
        let mut bytes = std::mem::take(&mut self.text).into_bytes();
        bytes.clear();
        bytes.resize(bytes.capacity().max(4096), 0);
        let mut filled = 0;
        loop {
            let read = self.file.read_at(&mut bytes[filled..], filled as u64);
            filled += read.with_context(|| format!("reading {}", self.path))?;
            if filled < bytes.len() {
                break;
            }
            // Full: there may be more (a machine with many cores).
            bytes.resize(bytes.len() * 2, 0);
        }
        bytes.truncate(filled);
        self.text = String::from_utf8(bytes).with_context(|| format!("{} is not text", self.path))?;
        Ok(&self.text)
    }
}

#[derive(Debug, Clone, Copy, PartialEq, Eq)]
struct CpuTimes {
    busy: u64,
    total: u64,
}

/// The jiffies of the `cpu` line (all cores): idle and iowait are idle,
/// the rest up to steal busy (guest time is already counted in user).
fn cpu_times(stat: &str) -> Option<CpuTimes> {
    let line = stat.lines().find(|line| line.starts_with("cpu "))?;
    let mut fields = [0u64; 8];
    for (field, text) in fields.iter_mut().zip(line.split_ascii_whitespace().skip(1)) {
        *field = text.parse().ok()?;
    }
    let [user, nice, system, idle, iowait, irq, softirq, steal] = fields;
    let busy = user + nice + system + irq + softirq + steal;
    Some(CpuTimes { busy, total: busy + idle + iowait })
}

/// Total and available memory from `/proc/meminfo` (in kB there); what is
/// in use is what is not available, as `free` counts it.
fn memory_usage(meminfo: &str) -> Option<MemoryUsage> {
    let kilobytes = |name: &str| -> Option<u64> {
        let line = meminfo.lines().find(|line| line.strip_prefix(name).is_some_and(|rest| rest.starts_with(':')))?;
        line.split_ascii_whitespace().nth(1)?.parse::<u64>().ok()
    };
    let total_bytes = kilobytes("MemTotal")? * 1024;
    let available_bytes = kilobytes("MemAvailable")?.min(total_bytes / 1024) * 1024;
    Some(MemoryUsage { total_bytes, used_bytes: total_bytes - available_bytes, available_bytes })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn cpu_times_count_iowait_as_idle_and_steal_as_busy() {
        let stat = "cpu  100 10 50 1000 40 5 5 20 7 0\ncpu0 50 5 25 500 20 2 3 10 3 0\nintr 1 2 3\n";
        assert_eq!(cpu_times(stat), Some(CpuTimes { busy: 190, total: 1230 }));
        assert_eq!(cpu_times("cpu0 1 2 3 4 5 6 7 8\n"), None, "only the line of all cores");
        assert_eq!(cpu_times("cpu  1 2 x 4 5 6 7 8\n"), None);
    }

    #[test]
    fn memory_in_use_is_what_is_not_available() {
        let meminfo = "MemTotal:       16000 kB\nMemFree:         1000 kB\nMemAvailable:    6000 kB\n";
        let usage = memory_usage(meminfo).unwrap();
        assert_eq!(usage.total_bytes, 16000 * 1024);
        assert_eq!(usage.available_bytes, 6000 * 1024);
        assert_eq!(usage.used_bytes, 10000 * 1024);
        assert_eq!(memory_usage("MemTotal: 1 kB\n"), None, "no MemAvailable (Linux before 3.14)");
    }

    /// A kept file read again shows the kernel's new figures, not the first ones.
    #[test]
    fn a_kept_file_is_read_afresh() {
        let mut uptime = ProcFile::open("/proc/uptime").unwrap();
        let first = uptime.read().unwrap().to_owned();
        std::thread::sleep(std::time::Duration::from_millis(30));
        assert_ne!(uptime.read().unwrap(), first);
    }
}
