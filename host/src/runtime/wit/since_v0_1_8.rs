//! `obi:widget@0.1.8`, the release widgets are built against today: its
//! bindings are the ones the host implements imports for ([`super::imports`]).

wasmtime::component::bindgen!({
    world: "widget",
    path: "../wit/since_v0.1.8",
});
