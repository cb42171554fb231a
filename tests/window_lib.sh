# Shared by the window tests (sourced; run under xvfb-run): start pagecurl and find its window,
# capture it, quit it with Escape. `name` labels messages.

# window_start EXE ARGS...: starts pagecurl, sets $pid and $win; exits 1 if no window appears.
window_start() {
    "$@" &
    pid=$!
    win=$(xdotool search --sync --onlyvisible --name '^pagecurl$' | head -n 1)
    if [ -z "$win" ]; then
        echo "$name: no pagecurl window appeared" >&2
        kill "$pid" 2>/dev/null
        exit 1
    fi
    xdotool windowactivate --sync "$win" 2>/dev/null || xdotool windowfocus --sync "$win"
}

# capture FILE: the window as a PNG. A capture racing a window update can come back unreadable:
# take it again.
capture() {
    for attempt in 1 2 3; do
        import -window "$win" "$1" 2>/dev/null && identify "$1" >/dev/null 2>&1 && return 0
        sleep 0.2
    done
    return 1
}

# wait_drawn FILE: captures the window into FILE until it shows a drawn frame (anything but the
# black of a window nothing was presented to yet), for up to 10 s: start-up (the page content
# drawn and uploaded, validation) takes longer on a loaded machine than a fixed sleep allows.
wait_drawn() {
    i=0
    while [ $i -lt 50 ]; do
        if capture "$1" && [ "$(convert "$1" -format '%[max]' info: 2>/dev/null)" != "0" ]; then
            return 0
        fi
        sleep 0.2
        i=$((i + 1))
    done
    echo "$name: the window drew nothing in 10 s" >&2
    return 1
}

# wait_changed REF FILE: captures the window into FILE until it differs from REF in more than
# 20000 pixels (by over 5 %), for up to 10 s: a loaded machine (ASan, validation, other jobs)
# may draw the frames that follow the input late. Fails when it never changes.
wait_changed() {
    i=0
    while [ $i -lt 50 ]; do
        if capture "$2"; then
            n=$(compare -metric AE -fuzz 5% "$1" "$2" null: 2>&1)
            case $n in '' | *[!0-9]*) ;; *) [ "$n" -gt 20000 ] && return 0 ;; esac
        fi
        sleep 0.2
        i=$((i + 1))
    done
    return 1
}

# window_wait: pagecurl's exit status in $status, once it has exited; a hang past 10 s is a
# failure.
window_wait() {
    i=0
    while kill -0 "$pid" 2>/dev/null && [ $i -lt 100 ]; do
        sleep 0.1
        i=$((i + 1))
    done
    if kill -0 "$pid" 2>/dev/null; then
        echo "$name: pagecurl did not exit within 10 s" >&2
        kill "$pid"
        exit 1
    fi
    wait "$pid"
    status=$?
}

# window_quit: Escape, then pagecurl's exit status in $status.
window_quit() {
    xdotool key --window "$win" Escape
    window_wait
}
