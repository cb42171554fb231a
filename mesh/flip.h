/* SPDX-License-Identifier: MIT */
/* The page-flip interaction: a state machine (idle -> dragging -> settling -> idle) that turns
 * pointer presses, moves and releases, key flips and the caller's clock into which leaf of a book
 * is turning, the material point grabbed on it and where the pointer holds it, and which page
 * sides show where. Pure C: no Vulkan, no SDL, no clock reads (every call takes the time in
 * seconds), no allocation, no globals. It does not pose the page in 3-D: the curl model's drag
 * mapping turns (grab, pointer) into a pose, and it does not draw. Frame: the open spread, spine on
 * x = 0, right page 0 <= x <= W, left page -W <= x <= 0, 0 <= y <= H; times never run backwards
 * (an earlier time counts as the latest one seen). */
#ifndef PAGECURL_MESH_FLIP_H
#define PAGECURL_MESH_FLIP_H

#include <stdbool.h>

/* Release: a flick whose speed along x is at least this many page widths per second decides the
 * turn by its direction, wherever the pointer is. A deliberate drag moves a page width in well
 * over a second; a flick covers one in a fraction of a second. */
#define MESH_FLIP_FLING_SPEED 1.5
/* ... but only after the pointer has travelled this fraction of W since the press: the tremor of
 * a click is not a flick. */
#define MESH_FLIP_FLING_MIN_TRAVEL 0.03
/* Velocity is the least-squares slope of the pointer samples of the last 100 ms: long enough to
 * average out the jitter of 60-1000 Hz input, short enough to be the motion at release. */
#define MESH_FLIP_VELOCITY_WINDOW 0.1
/* No sample in the last 40 ms before the release means the pointer had stopped (pointing devices
 * send nothing while still): the velocity is then 0, not that of the motion before the pause. */
#define MESH_FLIP_STOPPED_TIME 0.04
/* Samples kept for the estimate: 100 ms of 1000 Hz input would need 100; the newest 64 (>= 64 ms
 * at 1000 Hz) estimate as well. */
#define MESH_FLIP_MAX_SAMPLES 64
/* Natural frequency (rad/s) of the critically damped settling spring. From rest it closes a gap of
 * 0.2-2 W to the landing tolerance in about 0.41-0.56 s: inside the 300-600 ms of the anchors'
 * turns, and it ends quietly (no bounce, by critical damping). */
#define MESH_FLIP_SPRING_OMEGA 18.0
/* The settle lands (snaps exactly onto its target) once within this fraction of W: under a pixel
 * for pages up to 1000 px wide, so the snap is invisible. */
#define MESH_FLIP_LAND_DISTANCE 0.001
/* Presses within this fraction of W of the spine are ignored: a grab there has no lever to turn
 * the page, and completion and cancel would share one target. */
#define MESH_FLIP_SPINE_DEAD_ZONE 0.05
/* Key flips grab the free edge at this fraction of H: the default --grab of the demo, a corner
 * lift like a reader's. */
#define MESH_FLIP_KEY_GRAB_HEIGHT 0.25
/* The pointer is clamped to this many page sizes around the spread: no drag mapping needs more,
 * and a bound keeps the arithmetic finite for any finite input. */
#define MESH_FLIP_POINTER_LIMIT 8.0
/* A reader's turns (mesh_flip_turn) asked while a leaf settles wait in a queue of at most this
 * many: a held key's repeats (25-30 a second) fill it at once, and what is left when the key is
 * let go lands within about a second. */
#define MESH_FLIP_QUEUE_MAX 3
/* Each turn waiting hurries the settling leaf: its spring's frequency is MESH_FLIP_SPRING_OMEGA
 * times 1 + MESH_FLIP_HURRY x (turns waiting). One waiting turn lands the leaf in tens of ms
 * instead of half a second, so presses 60 ms apart (a fast hand) each turn a leaf; the last leaf
 * of a run settles at the ordinary pace. */
#define MESH_FLIP_HURRY 6.0
/* The lift (MeshFlipView.lift): how far the book's view is held back from rest, 0 .. 1, for the
 * camera (book/camera.c: face-on at 0, pulled back and tilted to take in the whole reach of the
 * leaf at 1), which pulls back at least as far as the leaf in the air needs in any case. The flip
 * keeps what that alone would not (mesh_flip_view_lift tells it the view's): while a page is held,
 * the lift stays where it was when it was taken, or where the latest pointer needs it; while
 * turns are queued it gathers to MESH_FLIP_LIFT_QUEUED over MESH_FLIP_LIFT_GATHER seconds, so
 * that thumbing through does not bring the view back between leaves; once neither holds it, it
 * eases back to 0 over MESH_FLIP_LIFT_RELEASE seconds. Each change starts at the moment of the
 * event that makes it (a landing's found on the spring's curve) from where the lift was, so the
 * lift at a moment does not depend on how often the flip is stepped, and it never jumps. */
#define MESH_FLIP_LIFT_QUEUED  0.6
#define MESH_FLIP_LIFT_GATHER  0.25
#define MESH_FLIP_LIFT_RELEASE 0.6
/* Reduced motion (MeshFlipDesc.reduced_motion): a turn is a cross-fade from the spread to the
 * next of this many seconds, nothing moving. A quarter second reads as a change of page without
 * a blink (under ~0.1 s it is a cut) and keeps a run of key presses as brisk as the spring's turns
 * (0.41-0.56 s); the queue hurries it as it does the spring (MESH_FLIP_HURRY). */
#define MESH_FLIP_FADE_TIME 0.25
/* Reduced motion: a drag shows the page flat, and its release turns the page only after the
 * pointer has gone this fraction of W towards the spine since the press (or on a flick): a
 * deliberate swipe, well past a click's tremor, short of the half page a curl's drag needs. */
#define MESH_FLIP_SWIPE_DISTANCE 0.2

typedef enum MeshFlipPhase {
    MESH_FLIP_IDLE = 0,
    MESH_FLIP_DRAGGING, /* the pointer holds the page */
    MESH_FLIP_SETTLING, /* released (or a key flip): the spring carries the pointer to its target */
    MESH_FLIP_FADING,   /* reduced motion: the spread cross-fades to the next (MeshFlipView.fade) */
} MeshFlipPhase;

typedef enum MeshFlipDirection {
    MESH_FLIP_NONE = 0,
    MESH_FLIP_FORWARD,  /* the right-hand leaf turns over the spine to the left: next spread */
    MESH_FLIP_BACKWARD, /* the left-hand leaf turns to the right: previous spread */
} MeshFlipDirection;

typedef enum MeshFlipSide {
    MESH_FLIP_SIDE_NONE = 0, /* nothing there (before the first leaf, after the last) */
    MESH_FLIP_SIDE_FRONT,    /* recto: faces up on the right-hand side */
    MESH_FLIP_SIDE_BACK,     /* verso: faces up on the left-hand side */
} MeshFlipSide;

/* One side of one leaf. Leaf k's front is book page 2k + 1, its back page 2k + 2 (1-based). */
typedef struct MeshFlipFace {
    int leaf; /* 0 .. leaf_count - 1; -1 with MESH_FLIP_SIDE_NONE */
    MeshFlipSide side;
} MeshFlipFace;

typedef struct MeshFlipDesc {
    float width, height; /* page size; 0 means MESH_PAGE_WIDTH / MESH_PAGE_HEIGHT (grid.h) */
    int leaf_count;      /* leaves in the book; 0 means 1 */
    int spread;          /* starting spread, 0 .. leaf_count (below) */
    int page_count;      /* pages in the book, 2 * leaf_count - 1 or 2 * leaf_count; 0 means the
                            latter (the last leaf's back is a page too) */
    bool thumb;          /* mesh_flip_thumb_press takes presses; false: it refuses them all, and
                            every press during a settle catches the leaf (mesh_flip_press) */
    /* Reduced motion: no leaf ever curls and the view never pulls back. Every turn (a key,
     * mesh_flip_turn, a drag's release past MESH_FLIP_SWIPE_DISTANCE or a flick) is a
     * MESH_FLIP_FADING phase of MESH_FLIP_FADE_TIME seconds (queued turns chain fades, hurried
     * like settles); a held page stays flat (pointer on grab, progress 0, not `turning`); a press
     * during a fade lands it at once and then takes the new spread's page; thumb presses are
     * refused; lift is always 0. */
    bool reduced_motion;
} MeshFlipDesc;

/* Spread s (0 .. leaf_count) shows leaf s - 1's back on the left and leaf s's front on the right;
 * spread 0 has an empty left, spread leaf_count an empty right. */
typedef struct MeshFlipView {
    MeshFlipPhase phase;
    bool turning;                /* phase != MESH_FLIP_IDLE */
    bool completing;             /* settling towards the turned-over pose (false: falling back) */
    MeshFlipDirection direction; /* MESH_FLIP_NONE when idle */
    int spread;                  /* the spread under the turn; it changes when a turn lands */
    int turning_leaf;            /* -1 when idle */
    int queued;                  /* turns waiting behind the settling leaf (mesh_flip_turn) */
    /* Where the book is heading: the spread once the settling leaf and the turns queued behind it
     * have landed; `spread` while idle or dragging (a drag's end is the hand's to decide). */
    int heading;
    bool thumb; /* a press behind the settling leaf is held (mesh_flip_thumb_press): its moves
                   are points of the flat spread, not of the turning leaf */
    /* In the turning leaf's own frame: spine x = 0, free edge x = W (a backward turn is reported
     * mirrored, x -> -x; mirror the posed page back to place it in the spread). grab is the
     * material point held, at rest; pointer is where it is held. After a turn lands both keep
     * their final values: the pointer exactly on its target. */
    float grab[2], pointer[2];
    float progress;    /* (grab x - pointer x) / (2 grab x), clamped to [0, 1]: 0 flat, 1 over */
    float grab_height; /* grab y / H */
    float lift;        /* the view held back (MESH_FLIP_LIFT_QUEUED), at rest too as it eases */
    float lift_held;   /* a held page's from when it was taken, without its latest pointer's */
    /* Static sides: left and right of the spine, under the turning leaf while one turns (the
     * sides it uncovers and lands on). face_up is the turning leaf's side seen at rest (its
     * frame's +z side), face_down the other: front/back for a forward turn, back/front backward. */
    MeshFlipFace left, right, face_up, face_down;
    /* MESH_FLIP_FADING: how far the spread has faded to the one the turn leads to, 0 .. 1 (it
     * falls back towards 0 for a fade turned round: completing false); to_left / to_right are
     * that spread's sides, left / right the sides of `spread`, both flat. turning_leaf is -1, no
     * leaf is posed. 0 and the sides of `spread` otherwise. */
    float fade;
    MeshFlipFace to_left, to_right;
    bool reduced_motion; /* MeshFlipDesc.reduced_motion */
} MeshFlipView;

typedef struct MeshFlipSample {
    double t, x, y;
} MeshFlipSample;

/* A leaf lifting or lying down, logged as it happens (within a call that lands several leaves
 * too: a step that carries queued turns through), for mesh_flip_take_event. */
typedef struct MeshFlipEvent {
    bool started;   /* a leaf lifts; false: one lies down */
    bool forward;   /* the turn's direction as it started */
    bool completed; /* lying down: turned over (false: fell back, or cut short in place) */
    int spread;     /* lifting: the spread it lifts from; lying down: the spread it shows */
} MeshFlipEvent;
/* Events kept until taken: a single call logs at most a landing and a lift for each queued turn
 * (MESH_FLIP_QUEUE_MAX) and the one in flight; a caller that takes them after each call never
 * loses one. Beyond it the oldest go (MeshFlip.events_lost counts them). */
#define MESH_FLIP_EVENTS 16

/* All fields are the module's; read them through mesh_flip_view. */
typedef struct MeshFlip {
    double width, height;
    int leaf_count, spread;
    int end_spread; /* End's: the spread holding the last page */
    MeshFlipPhase phase;
    MeshFlipDirection direction;
    bool completing;
    double grab_x, grab_y;       /* turning-leaf frame */
    double pointer_x, pointer_y; /* turning-leaf frame */
    double offset_x, offset_y;   /* pointer - mirrored input while dragging (0 for a fresh grab) */
    double press_x, press_y;     /* pointer when the drag began, for the travel of a flick */
    double last_time;            /* latest time seen; NaN before the first */
    double target_x, target_y;   /* settling: where the pointer goes */
    double dir_x, dir_y;         /* settling: unit vector from the target to the start */
    double gap0, speed0, settle_t0; /* settling: start distance, speed towards target, start time */
    double omega;                   /* settling: the spring's frequency (hurried by the queue) */
    int queued;                     /* turns waiting behind the settling leaf */
    MeshFlipDirection queue_direction;
    /* A press behind the settling leaf (mesh_flip_thumb_press), in the turning leaf's frame: where
     * it was pressed and where it is now. Its samples use the ring: a settle has none. */
    bool thumb, thumb_allowed;
    double thumb_x, thumb_y, thumb_press_x, thumb_press_y;
    MeshFlipSample samples[MESH_FLIP_MAX_SAMPLES]; /* ring of pointer samples while dragging */
    int sample_count, sample_next;
    /* The lift: held, gathering or easing back (flip.c's FlipLift), from lift_from at
     * lift_since. */
    int lift_mode;
    double lift_from, lift_since;
    double lift_drag; /* held: the latest pointer's (mesh_flip_view_lift) */
    /* Reduced motion: the fade at fade_t0 was fade_from and moves at fade_rate per second (up
     * when completing, down when turned round). */
    bool reduced;
    double fade_from, fade_t0, fade_rate;
    MeshFlipEvent events[MESH_FLIP_EVENTS]; /* a ring: the oldest at event_head */
    int event_head, event_count;
    unsigned events_lost;
} MeshFlip;

/* The oldest leaf event not taken yet; false when none is left. */
bool mesh_flip_take_event(MeshFlip *flip, MeshFlipEvent *out);

/* false (flip zeroed) for a non-finite or negative size, leaf_count < 0 or a spread outside
 * 0 .. leaf_count. */
bool mesh_flip_init(MeshFlip *flip, const MeshFlipDesc *desc);

/* A press at spread point (x, y). Idle: on the right page (clear of the spine dead zone) starts a
 * forward drag if a leaf lies there, on the left page a backward one; elsewhere nothing. Settling:
 * any press catches the page where it is (same grabbed point; the pointer continues from the
 * page's current pointer, no jump), and the turns queued behind it are dropped: the hand has the
 * book now. Ignored while a thumb press is held. Returns whether a drag began. */
bool mesh_flip_press(MeshFlip *flip, float x, float y, double time);
/* Thumbing through: a press at spread point (x, y) of the book's plane on the page a leaf settling
 * towards completion is leaving (the right page for a forward turn, the left for a backward one),
 * whether or not the leaf still covers that spot: a hand reaching for the next leaf (a press on
 * the leaf past the spine is left to mesh_flip_press, which catches it). Nothing moves yet.
 * Released as a flick towards the spine it asks for one more turn (mesh_flip_turn), a flick the
 * other way asks for a turn back; still held when the leaf lands (and nothing is queued), it
 * becomes a drag of the leaf now under it, grabbed where it was pressed and following the
 * press-relative motion since. False (nothing happens) where the flip was made without
 * MeshFlipDesc.thumb, no such leaf settles, the point is not on that page, or a press is already
 * held. */
bool mesh_flip_thumb_press(MeshFlip *flip, float x, float y, double time);
/* Dragging: the pointer follows the press-relative motion. A thumb press: its point follows the
 * spread point (x, y). Otherwise nothing. */
void mesh_flip_move(MeshFlip *flip, float x, float y, double time);
/* Dragging: decide complete or cancel (flick velocity, else which side of the spine the pointer
 * is on) and start settling. A thumb press: a flick asks for a turn (above). Otherwise nothing. */
void mesh_flip_release(MeshFlip *flip, double time);
/* Dragging: the system took the pointer (a touch cancelled): the page falls back where it came
 * from, whatever the pointer's place or speed. A thumb press is dropped. Otherwise nothing. */
void mesh_flip_cancel(MeshFlip *flip, double time);
/* Advances the settle to time; lands exactly on the target, goes idle and (on completion) moves
 * the spread. A turn queued starts the moment the leaf before it lands (that moment, found on the
 * spring's curve, not the step's time: the poses do not depend on how often it is stepped), and
 * a thumb press still held then becomes a drag. Returns true while settling, including the step
 * that lands; false when idle or dragging (a drag moves only on mesh_flip_move). */
bool mesh_flip_step(MeshFlip *flip, double time);
/* Key flips: from idle, an automatic turn from the free-edge corner, animated by the same spring
 * to completion. Returns false (nothing happens) when there is no leaf to turn or something is
 * already moving (mesh_flip_turn queues instead). */
bool mesh_flip_next(MeshFlip *flip, double time);
bool mesh_flip_prev(MeshFlip *flip, double time);
/* A reader's turn asked (a key, or a flick behind the settling leaf), so that repeated presses
 * thumb through the book. Idle: mesh_flip_next / mesh_flip_prev. While a leaf settles:
 * - towards completion the same way: queued (at most MESH_FLIP_QUEUE_MAX, and no further than
 *   the book's end); each turn queued hurries the settling leaf (MESH_FLIP_HURRY), and each
 *   starts as the one before lands;
 * - with turns queued, the other way: the queue is dropped (the leaf in the air still lands);
 * - nothing queued, the way the leaf is not heading: the leaf turns round from where it is, at
 *   the speed it has towards its new target (a turn asked back takes back the turn in flight, a
 *   turn asked for a falling-back leaf completes it);
 * - nothing queued, a leaf falling back and the other way: queued.
 * False (nothing happens) while a page is held, past the queue's bound or the book's end, or for
 * a direction that is neither. */
bool mesh_flip_turn(MeshFlip *flip, MeshFlipDirection direction, double time);

/* The view at the latest time seen. */
MeshFlipView mesh_flip_view(const MeshFlip *flip);
/* The view as it will be at `time`, the flip itself left as it is: a frame posed for the moment it
 * will be shown, while the state machine (and what it decides on input) keeps to the real clock.
 * A settle is stepped ahead, landing included; a drag holds its pointer; the lift eases on at
 * rest too; a time not after the latest one seen gives mesh_flip_view. */
MeshFlipView mesh_flip_view_at(const MeshFlip *flip, double time);

/* The lift the caller's view has at `time`, where it is more than the flip's own (the camera
 * pulls back as far as the leaf in the air needs, which only the caller can measure): while a
 * page is held it stands for the drag's latest pointer (it replaces the one before: the view then
 * depends on where the pointer is, not on the moves that led there); while turns are queued the
 * lift gathers on from no lower than it. Otherwise nothing. */
void mesh_flip_view_lift(MeshFlip *flip, float lift, double time);

/* Home / End: open the book at spread 0 .. leaf_count at once (clamped), no animation. False
 * while a page moves (a turn is not cut short). */
bool mesh_flip_goto(MeshFlip *flip, int spread);
/* Go to page: the same at time t, cutting short a leaf settling by itself (and the turns queued
 * behind it: the reader asked for another place); the view's lift eases back from where it is.
 * False while the pointer holds a page. */
bool mesh_flip_jump(MeshFlip *flip, int spread, double t);

/* End's spread: the one holding the book's last page (the page on its left or its right), not
 * the empty back of a last leaf that has no page on it. */
int mesh_flip_end_spread(const MeshFlip *flip);

/* Which content column (0 = the content's left edge, 1 its right) lies at distance u from the
 * spine (0 <= u <= width) on a side of a leaf, in any frame: a front reads from the spine out, a
 * back from the free edge in, so that both read left to right when seen face up. Using this for
 * both faces of the turning leaf is what keeps back sides from showing mirrored. */
float mesh_flip_content_column(MeshFlipSide side, float u, float width);

#endif
