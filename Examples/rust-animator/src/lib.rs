//! ZoomFade: the from view sinks back and fades while the to view settles in
//! from slightly larger, a Segue animator in Rust.
//!
//! The types come from the public header through bindgen (`src/bindings.rs`,
//! committed; `./regenerate-bindings.sh` makes it again). Everything the host
//! reads is static data; no panic crosses the ABI: each callback runs inside
//! `catch_unwind`, and a panic in setup declines the transition.
#![allow(non_upper_case_globals, non_camel_case_types, non_snake_case, dead_code)]

mod bindings {
    #![allow(unused_imports)]
    include!("bindings.rs");
}

use bindings::*;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, Ordering};

/// Statics holding raw pointers: plain data the host only reads.
#[repr(transparent)]
struct Shared<T>(T);
unsafe impl<T> Sync for Shared<T> {}

const fn text(bytes: &'static [u8]) -> *const c_char {
    bytes.as_ptr() as *const c_char
}

const DURATION: usize = 0;
const DEPTH: usize = 1;

const fn number(name: &'static [u8], explanation: &'static [u8], default: f64, min: f64, max: f64) -> segue_param_t {
    segue_param_t {
        struct_size: std::mem::size_of::<segue_param_t>() as u32,
        name: text(name),
        explanation: text(explanation),
        type_: segue_param_type_SEGUE_PARAM_NUMBER as u32,
        default_value: default,
        min_value: min,
        max_value: max,
        choices: std::ptr::null(),
        choice_count: 0,
    }
}

static DURATION_PARAM: Shared<segue_param_t> =
    Shared(number(b"duration\0", b"Length of the transition, in seconds.\0", 0.35, 0.05, 10.0));
static DEPTH_PARAM: Shared<segue_param_t> = Shared(number(
    b"depth\0",
    b"How far the from view sinks back (and the to view starts out larger), as a share of its size.\0",
    0.15,
    0.0,
    0.5,
));
static PARAMS: Shared<[*const segue_param_t; 2]> = Shared([&DURATION_PARAM.0, &DEPTH_PARAM.0]);

const VERSION: segue_version_t = segue_version_t { major: SEGUE_ABI_VERSION_MAJOR, minor: SEGUE_ABI_VERSION_MINOR };

/// The header's `segue_version_is_compatible`, an inline function bindgen does not carry over.
fn compatible(v: segue_version_t) -> bool {
    v.major == SEGUE_ABI_VERSION_MAJOR
}

static HOST: AtomicPtr<segue_host_t> = AtomicPtr::new(std::ptr::null_mut());

unsafe extern "C" fn setup(_: *const segue_animator_t, ctx: *const segue_context_t, plan: *mut segue_plan_t) -> segue_setup_result_t {
    catch_unwind(AssertUnwindSafe(|| {
        let (ctx, plan) = (&*ctx, &mut *plan);
        plan.duration = *ctx.params.add(DURATION);
        plan.layer_count = 2;
        plan.layers[0].kind = segue_layer_kind_SEGUE_LAYER_FROM_VIEW as u32;
        plan.layers[1].kind = segue_layer_kind_SEGUE_LAYER_TO_VIEW as u32;
        segue_setup_result_SEGUE_SETUP_ANIMATE
    }))
    .unwrap_or(segue_setup_result_SEGUE_SETUP_DECLINE)
}

/// A uniform scale about the layer's centre.
fn scaled(s: f64) -> segue_transform3d_t {
    let mut m = [0.0; 16];
    (m[0], m[5], m[10], m[15]) = (s, s, 1.0, 1.0);
    segue_transform3d_t { m }
}

unsafe extern "C" fn evaluate(
    _: *const segue_animator_t, ctx: *const segue_context_t, plan: *const segue_plan_t, t: f64,
    states: *const *mut segue_layer_state_t, _count: u32,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let (ctx, plan) = (&*ctx, &*plan);
        let host = &*HOST.load(Ordering::Acquire);
        let curve = host.curve_value.expect("the host table has curve_value");
        let f = curve(segue_curve_SEGUE_CURVE_EASE_IN_OUT, t / plan.duration);
        let depth = *ctx.params.add(DEPTH);
        let (from, to) = (&mut **states, &mut **states.add(1));
        from.frame = ctx.from_initial_frame;
        from.transform = scaled(1.0 - depth * f);
        from.alpha = 1.0 - f;
        to.frame = ctx.to_final_frame;
        to.transform = scaled(1.0 + depth * (1.0 - f));
        to.alpha = f;
    }));
}

static ANIMATOR: Shared<segue_animator_t> = Shared(segue_animator_t {
    abi_version: VERSION,
    struct_size: std::mem::size_of::<segue_animator_t>() as u32,
    id: text(b"org.segue.example.zoom-fade/1\0"),
    name: text(b"ZoomFade\0"),
    version: text(b"1.0.0\0"),
    description: text(b"The from view sinks back and fades while the to view settles in from slightly larger.\0"),
    params: &PARAMS.0 as *const _ as *const *const segue_param_t,
    param_count: 2,
    setup: Some(setup),
    evaluate: Some(evaluate),
    end: None,
    kinds: 0,
});
static ANIMATORS: Shared<[*const segue_animator_t; 1]> = Shared([&ANIMATOR.0]);
static PLUGIN: Shared<segue_plugin_t> = Shared(segue_plugin_t {
    abi_version: VERSION,
    struct_size: std::mem::size_of::<segue_plugin_t>() as u32,
    animators: &ANIMATORS.0 as *const _ as *const *const segue_animator_t,
    animator_count: 1,
});

/// The plugin's one export.
#[no_mangle]
pub unsafe extern "C" fn segue_animator_entry(host: *const segue_host_t) -> *const segue_plugin_t {
    catch_unwind(|| {
        if host.is_null() || !compatible((*host).abi_version) {
            return std::ptr::null();
        }
        HOST.store(host as *mut _, Ordering::Release);
        &PLUGIN.0 as *const segue_plugin_t
    })
    .unwrap_or(std::ptr::null())
}
