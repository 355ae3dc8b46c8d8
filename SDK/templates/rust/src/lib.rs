//! @NAME@: a Segue animator in Rust. The from view fades out while the to view fades in.
#![allow(non_upper_case_globals, non_camel_case_types, non_snake_case, dead_code)]

mod bindings {
    #![allow(unused_imports)]
    include!("bindings.rs");
}

use bindings::*;
use std::os::raw::c_char;
use std::panic::{catch_unwind, AssertUnwindSafe};
use std::sync::atomic::{AtomicPtr, Ordering};

#[repr(transparent)]
struct Shared<T>(T);
unsafe impl<T> Sync for Shared<T> {}

const fn text(bytes: &'static [u8]) -> *const c_char {
    bytes.as_ptr() as *const c_char
}

static DURATION: Shared<segue_param_t> = Shared(segue_param_t {
    struct_size: std::mem::size_of::<segue_param_t>() as u32,
    name: text(b"duration\0"),
    explanation: text(b"Length of the transition, in seconds.\0"),
    type_: segue_param_type_SEGUE_PARAM_NUMBER as u32,
    default_value: 0.3,
    min_value: 0.05,
    max_value: 10.0,
    choices: std::ptr::null(),
    choice_count: 0,
});
static PARAMS: Shared<[*const segue_param_t; 1]> = Shared([&DURATION.0]);
const VERSION: segue_version_t = segue_version_t { major: SEGUE_ABI_VERSION_MAJOR, minor: SEGUE_ABI_VERSION_MINOR };
static HOST: AtomicPtr<segue_host_t> = AtomicPtr::new(std::ptr::null_mut());

unsafe extern "C" fn setup(_: *const segue_animator_t, ctx: *const segue_context_t, plan: *mut segue_plan_t) -> segue_setup_result_t {
    catch_unwind(AssertUnwindSafe(|| {
        let (ctx, plan) = (&*ctx, &mut *plan);
        plan.duration = *ctx.params;
        plan.layer_count = 2;
        plan.layers[0].kind = segue_layer_kind_SEGUE_LAYER_FROM_VIEW as u32;
        plan.layers[1].kind = segue_layer_kind_SEGUE_LAYER_TO_VIEW as u32;
        segue_setup_result_SEGUE_SETUP_ANIMATE
    }))
    .unwrap_or(segue_setup_result_SEGUE_SETUP_DECLINE)
}

unsafe extern "C" fn evaluate(
    _: *const segue_animator_t, ctx: *const segue_context_t, plan: *const segue_plan_t, t: f64,
    states: *const *mut segue_layer_state_t, _count: u32,
) {
    let _ = catch_unwind(AssertUnwindSafe(|| {
        let (ctx, plan) = (&*ctx, &*plan);
        let curve = (*HOST.load(Ordering::Acquire)).curve_value.expect("curve_value");
        let f = curve(segue_curve_SEGUE_CURVE_EASE_IN_OUT, t / plan.duration);
        let (from, to) = (&mut **states, &mut **states.add(1));
        from.frame = ctx.from_initial_frame;
        from.alpha = 1.0 - f;
        to.frame = ctx.to_final_frame;
        to.alpha = f;
    }));
}

static ANIMATOR: Shared<segue_animator_t> = Shared(segue_animator_t {
    abi_version: VERSION,
    struct_size: std::mem::size_of::<segue_animator_t>() as u32,
    id: text(b"@ID@\0"),
    name: text(b"@NAME@\0"),
    version: text(b"0.1.0\0"),
    description: text(b"Fades the from view out while the to view fades in.\0"),
    params: &PARAMS.0 as *const _ as *const *const segue_param_t,
    param_count: 1,
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

#[no_mangle]
pub unsafe extern "C" fn segue_animator_entry(host: *const segue_host_t) -> *const segue_plugin_t {
    catch_unwind(|| {
        if host.is_null() || (*host).abi_version.major != SEGUE_ABI_VERSION_MAJOR {
            return std::ptr::null();
        }
        HOST.store(host as *mut _, Ordering::Release);
        &PLUGIN.0 as *const segue_plugin_t
    })
    .unwrap_or(std::ptr::null())
}
