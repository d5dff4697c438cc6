use std::hint::black_box;
use std::time::Duration;

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use pairbench_rust_example::{checksum, sort_copy};

fn kernels(c: &mut Criterion) {
    let data: Vec<u8> = (0..64 * 1024u32).map(|i| (i.wrapping_mul(31) + 7) as u8).collect();
    let mut group = c.benchmark_group("kernels");
    group.throughput(Throughput::Bytes(data.len() as u64));
    group.bench_function("checksum", |b| b.iter(|| checksum(black_box(&data))));
    group.throughput(Throughput::Elements(1000));
    let xs: Vec<u32> = (0..1000u32).map(|i| (i * 7919) % 1000).collect();
    group.bench_function("sort_1000", |b| b.iter(|| sort_copy(black_box(&xs))));
    group.finish();
}

// Short runs: pairbench repeats the whole suite in pairs, so one run need not be precise.
fn config() -> Criterion {
    Criterion::default()
        .warm_up_time(Duration::from_millis(300))
        .measurement_time(Duration::from_millis(700))
        .sample_size(20)
        .without_plots()
}

criterion_group! { name = benches; config = config(); targets = kernels }
criterion_main!(benches);
