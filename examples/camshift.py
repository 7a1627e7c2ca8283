#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Tracks faces (or any coloured target) through a video with OpenCV's
CamShift on an OpenCL device, and draws each track's rotated box.

Two ways, one algorithm:

* clcamshift (the default) tracks on the device:

      filesrc ! decodebin ! videoconvert ! clcamshift window=<...> ! appsink

  The window starts track 0 (--window); or the application runs a Haar
  face detector on the decoded frames and marks each face with a
  GstVideoRegionOfInterestMeta of type "track" (--detect), so that every
  face starts a track of its own:

      filesrc ! decodebin ! videoconvert ! appsink  ->  detector  ->
      appsrc ! clcamshift ! appsink

  The boxes and windows come from the element's "camshift" messages.

* --backproject: clbackproject computes the probability image on the
  device from a model the application made with cv2.calcHist() and
  cv2.normalize() (as OpenCV's samples/python/camshift.py), and the
  application tracks with cv2.CamShift() on those GRAY8 frames itself: the
  way to put your own tracker after the device's back-projection.

      filesrc ! decodebin ! videoconvert ! appsink  ->  model, detector  ->
      appsrc ! clbackproject model=<...> ! appsink  ->  cv2.CamShift()

Both print one line per frame and track, the same lines for the same video
and options (here cut in two):

    frame 45 time 1.877 id 0 window 235,106,127,379
    box 298.50,295.50 124.94x377.47 178.07

(the frame's number from 0 and its time in seconds, the track, the search
window for the next frame as x,y,width,height, and the rotated box as
centre x,y, width x height and angle in degrees, as OpenCV's RotatedRect),
or "frame N time T id K lost" when a track ends. --output writes the video
with the boxes drawn (VP8 in Matroska), --display shows it.

The video and the cascade: scripts/fetch-samples.sh puts OpenCV's
Megamind.avi and haarcascade_frontalface_default.xml into data/.

From the build tree, set GST_PLUGIN_PATH=build/gst.
"""
import argparse
import os
import sys

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstVideo", "1.0")
    from gi.repository import GLib, Gst, GstVideo
    import cv2
    import numpy as np
except (ImportError, ValueError) as e:
    sys.exit(f"camshift.py: needs python3-gi, gir1.2-gst-plugins-base-1.0, "
             f"python3-opencv and python3-numpy ({e})")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASCADE = os.path.normpath(os.path.join(
    HERE, os.pardir, "data", "haarcascade_frontalface_default.xml"))
DECODE = ("filesrc name=file ! decodebin ! videoconvert ! "
          "video/x-raw,format=BGR")
# clcamshift's defaults, max-iterations=10 and epsilon=1.0: the criteria
# of OpenCV's sample.
CRITERIA = (cv2.TERM_CRITERIA_EPS | cv2.TERM_CRITERIA_COUNT, 10, 1.0)


class PipelineError(Exception):
    pass


class Stage:
    """A pipeline the application pulls frames from (and maybe pushes
    frames into); its errors raise PipelineError, its warnings go to
    stderr, its element messages are kept in `messages`."""

    def __init__(self, description):
        try:
            self.pipeline = Gst.parse_launch(description)
        except GLib.Error as e:
            raise PipelineError(e.message)
        self.bus = self.pipeline.get_bus()
        self.messages = []

    def __getitem__(self, name):
        return self.pipeline.get_by_name(name)

    def start(self):
        if (self.pipeline.set_state(Gst.State.PLAYING)
                == Gst.StateChangeReturn.FAILURE):
            self.check()
            raise PipelineError("the pipeline did not start")

    def check(self):
        while True:
            msg = self.bus.pop_filtered(Gst.MessageType.ERROR
                                        | Gst.MessageType.WARNING
                                        | Gst.MessageType.ELEMENT)
            if msg is None:
                return
            if msg.type == Gst.MessageType.ERROR:
                err, debug = msg.parse_error()
                raise PipelineError(f"{msg.src.get_name()}: {err.message}")
            if msg.type == Gst.MessageType.WARNING:
                err, debug = msg.parse_warning()
                print(f"camshift.py: warning: {msg.src.get_name()}: "
                      f"{err.message}", file=sys.stderr)
            else:
                self.messages.append(msg)

    def pull(self, name="sink"):
        """The next sample of appsink `name`, None at the end."""
        sink = self[name]
        while True:
            sample = sink.emit("try-pull-sample", 100 * Gst.MSECOND)
            self.check()
            if sample is not None:
                return sample
            if sink.get_property("eos"):
                return None

    def push(self, buffer, name="src"):
        if self[name].emit("push-buffer", buffer) != Gst.FlowReturn.OK:
            self.check()
            raise PipelineError("could not push a frame")

    def finish(self, name="src"):
        """Ends the stream at appsrc `name` and waits until it is out."""
        self[name].emit("end-of-stream")
        msg = self.bus.timed_pop_filtered(
            Gst.CLOCK_TIME_NONE, Gst.MessageType.EOS | Gst.MessageType.ERROR)
        if msg.type == Gst.MessageType.ERROR:
            raise PipelineError(f"{msg.src.get_name()}: "
                                f"{msg.parse_error()[0].message}")

    def stop(self):
        self.pipeline.set_state(Gst.State.NULL)


def frame_array(sample, channels):
    """A copy of the sample's frame as an H x W x channels (or, for one
    channel, H x W) uint8 array, whatever its stride."""
    info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
    buffer = sample.get_buffer()
    meta = GstVideo.buffer_get_video_meta(buffer)
    offset, stride = ((meta.offset[0], meta.stride[0]) if meta
                      else (info.offset[0], info.stride[0]))
    ok, mapped = buffer.map(Gst.MapFlags.READ)
    if not ok:
        raise PipelineError("could not map a frame")
    try:
        data = np.frombuffer(mapped.data, np.uint8)
        rows = np.lib.stride_tricks.as_strided(
            data[offset:], (info.height, info.width * channels), (stride, 1))
        image = rows.reshape(info.height, info.width, channels).copy()
    finally:
        buffer.unmap(mapped)
    return image[:, :, 0] if channels == 1 else image


class Track:
    def __init__(self, window):
        self.window = window     # the search window, (x, y, w, h)
        self.box = ((0.0, 0.0), (0.0, 0.0), 0.0)
        self.lost = False
        self.reported_lost = False
        self.model = None        # --backproject: the hue histogram


class Starts:
    """Where tracks start (or, with --redetect, start again or stop): the
    --window on frame --start, or the faces the Haar cascade finds from
    frame --start on, until it finds some; with --redetect N, again N
    frames later, and so on. A face whose centre lies in a bigger face is
    left out. A face whose centre lies in a live track's window starts
    that track again; the other faces start tracks of the smallest free
    ids; a live track that no face is in for two detections in a row
    stops."""

    MISSES = 2

    def __init__(self, args):
        self.args = args
        self.detector = None
        self.next_detection = args.start
        self.misses = {}
        if args.detect:
            try:
                self.detector = cv2.CascadeClassifier(args.detect)
            except (cv2.error, SystemError):
                self.detector = None
            if self.detector is None or self.detector.empty():
                raise PipelineError(f"{args.detect}: not an OpenCV cascade")

    def wanted(self, index):
        """Whether the frame `index` is looked at."""
        if self.detector is None:
            return index == self.args.start
        return self.next_detection is not None and index >= self.next_detection

    def faces(self, image):
        """The faces in `image` as (x, y, w, h), biggest first."""
        gray = cv2.equalizeHist(cv2.cvtColor(image, cv2.COLOR_BGR2GRAY))
        side = max(image.shape[0] // 8, 24)
        found = self.detector.detectMultiScale(gray, 1.1, 5,
                                               minSize=(side, side))
        faces = []
        for x, y, w, h in sorted((tuple(int(v) for v in f) for f in found),
                                 key=lambda f: (-f[2] * f[3], f)):
            if not any(inside((x, y, w, h), f) for f in faces):
                faces.append((x, y, w, h))
        return faces

    def find(self, index, image, tracks):
        """[(id, window)] for frame `index` (a window of no pixels stops a
        track); [] for none."""
        if self.detector is None:
            return [(0, self.args.window)]
        faces = self.faces(image)
        if not faces:
            return []
        print(f"camshift.py: frame {index}: faces at "
              + "; ".join(",".join(map(str, f)) for f in faces),
              file=sys.stderr)
        self.next_detection = (index + self.args.redetect
                               if self.args.redetect else None)
        live = {i: t.window for i, t in tracks.items() if not t.lost}
        starts = {}
        for face in faces:
            same = [i for i, window in sorted(live.items())
                    if i not in starts and inside(face, window)]
            if same:
                starts[same[0]] = face
        for face in faces:
            if face not in starts.values():
                free = next(i for i in range(len(live) + len(faces) + 1)
                            if i not in starts and i not in live)
                starts[free] = face
        for i in live:
            if i in starts:
                continue
            self.misses[i] = self.misses.get(i, 0) + 1
            if self.misses[i] >= self.MISSES:
                starts[i] = (0, 0, 0, 0)
        for i, window in starts.items():
            if window[2] > 0:
                self.misses[i] = 0
        return sorted(starts.items())


def inside(rect, window):
    """Whether the centre of `rect` lies in `window`."""
    x, y, w, h = rect
    wx, wy, ww, wh = window
    return wx <= x + w / 2 < wx + ww and wy <= y + h / 2 < wy + wh


def report(index, pts, tracks):
    """One line per track of frame `index`; a lost one only once."""
    time = (f"{pts / Gst.SECOND:.3f}" if pts != Gst.CLOCK_TIME_NONE
            else "none")
    for i, t in sorted(tracks.items()):
        if t.lost:
            if not t.reported_lost:
                print(f"frame {index} time {time} id {i} lost")
            t.reported_lost = True
            continue
        (cx, cy), (w, h), angle = t.box
        x, y, ww, wh = t.window
        print(f"frame {index} time {time} id {i} window {x},{y},{ww},{wh} "
              f"box {cx:.2f},{cy:.2f} {w:.2f}x{h:.2f} {angle:.2f}")


def draw(image, tracks):
    for i, t in sorted(tracks.items()):
        if t.lost:
            continue
        x, y, w, h = t.window
        cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1), (0, 255, 0), 1)
        if t.box[1][0] > 0 and t.box[1][1] > 0:
            cv2.ellipse(image, t.box, (0, 0, 255), 2)
            corners = np.int32(np.round(cv2.boxPoints(t.box)))
            cv2.polylines(image, [corners], True, (0, 255, 255), 1)
        cv2.putText(image, str(i), (x + 3, y + 18), cv2.FONT_HERSHEY_SIMPLEX,
                    0.6, (255, 255, 255), 2)


class Output:
    """--output: VP8 in Matroska; --display: a window; else nothing."""

    def __init__(self, args):
        self.stage = None
        if args.output:
            self.stage = Stage(
                "appsrc name=src format=time block=true ! videoconvert ! "
                "vp8enc target-bitrate=4000000 deadline=1 cpu-used=4 ! "
                "matroskamux ! filesink name=out")
            self.stage["out"].set_property("location", args.output)
        elif args.display:
            self.stage = Stage("appsrc name=src format=time block=true ! "
                               "videoconvert ! autovideosink")

    def write(self, image, caps, like):
        """Pushes `image` (BGR, of `caps`) with the timestamps of buffer
        `like`."""
        if self.stage is None:
            return
        src = self.stage["src"]
        if src.get_property("caps") is None:
            src.set_property("caps", caps)
            self.stage.start()
        info = GstVideo.VideoInfo.new_from_caps(caps)
        rows = np.zeros((info.height, info.stride[0]), np.uint8)
        rows[:, :info.width * 3] = image.reshape(info.height, -1)
        buffer = Gst.Buffer.new_wrapped(rows.tobytes())
        buffer.pts, buffer.dts = like.pts, like.dts
        buffer.duration = like.duration
        self.stage.push(buffer)

    def close(self):
        if self.stage is not None and self.stage["src"].get_property("caps"):
            self.stage.finish()
        if self.stage is not None:
            self.stage.stop()


def set_mask(element, args):
    for name in ("bins", "min-saturation", "min-value", "max-value"):
        element.set_property(name, getattr(args, name.replace("-", "_")))
    if args.device:
        element.set_property("device", args.device)


def messages_to_tracks(stage, pts, tracks):
    """Updates `tracks` from clcamshift's messages of the frame at `pts`
    (posted before the frame left the element)."""
    later = []
    for msg in stage.messages:
        s = msg.get_structure()
        if s.get_name() != "camshift":
            continue
        if s["timestamp"] != pts:
            later.append(msg)
            continue
        t = tracks.setdefault(s["id"], Track(None))
        if t.lost and not s["lost"]:
            t.reported_lost = False      # started again
        t.window = tuple(s["window"])
        t.box = ((s["center-x"], s["center-y"]), (s["width"], s["height"]),
                 s["angle"])
        t.lost = s["lost"]
    stage.messages = later


def marked(buffer, starts):
    """A copy of `buffer` (sharing its memory) with a "track" ROI meta of
    each (id, window) of `starts`: the decoder's buffer is not writable
    from Python, a new one is."""
    copy = Gst.Buffer.new()
    copy.copy_into(buffer, Gst.BufferCopyFlags.FLAGS
                   | Gst.BufferCopyFlags.TIMESTAMPS | Gst.BufferCopyFlags.META
                   | Gst.BufferCopyFlags.MEMORY, 0, buffer.get_size())
    for i, (x, y, w, h) in starts:
        roi = GstVideo.buffer_add_video_region_of_interest_meta(
            copy, "track", x, y, w, h)
        roi.id = i
    return copy


def run_camshift(args, starts, output):
    """clcamshift tracks; the --window on its window property, the
    detector's faces as "track" ROI metas."""
    tracks = {}
    if args.detect:
        decode = Stage(f"{DECODE} ! appsink name=sink sync=false")
        decode["file"].set_property("location", args.video)
        track = Stage("appsrc name=src format=time ! clcamshift name=tracker "
                      "! appsink name=sink sync=false")
    else:
        decode = None
        track = Stage(f"{DECODE} ! clcamshift name=tracker ! "
                      "appsink name=sink sync=false")
        track["file"].set_property("location", args.video)
    tracker = track["tracker"]
    set_mask(tracker, args)
    if args.window and args.start == 0:
        tracker.set_property("window", Gst.ValueArray(args.window))
    elif args.window:
        # The window starts track 0 on the frame the element gets next.
        seen = [0]

        def start_at(pad, info):
            if seen[0] == args.start:
                tracker.set_property("window", Gst.ValueArray(args.window))
            seen[0] += 1
            return (Gst.PadProbeReturn.REMOVE if seen[0] > args.start
                    else Gst.PadProbeReturn.OK)
        tracker.get_static_pad("sink").add_probe(Gst.PadProbeType.BUFFER,
                                                 start_at)
    try:
        if decode:
            decode.start()
        else:
            track.start()
        index = 0
        while args.frames is None or index < args.frames:
            if decode:
                sample = decode.pull()
                if sample is None:
                    break
                buffer = sample.get_buffer()
                if index == 0:
                    track["src"].set_property("caps", sample.get_caps())
                    track.start()
                if starts.wanted(index):
                    found = starts.find(index, frame_array(sample, 3), tracks)
                    if found:
                        buffer = marked(buffer, found)
                track.push(buffer)
            sample = track.pull()
            if sample is None:
                break
            pts = sample.get_buffer().pts
            messages_to_tracks(track, pts, tracks)
            report(index, pts, tracks)
            if output.stage:
                image = frame_array(sample, 3)
                draw(image, tracks)
                output.write(image, sample.get_caps(), sample.get_buffer())
            index += 1
    finally:
        for stage in (decode, track):
            if stage:
                stage.stop()


def hue_model(hsv, mask, window, bins):
    """The window's hue histogram under the mask, scaled to 0..255: the
    model of OpenCV's CamShift sample."""
    x, y, w, h = window
    x0, y0 = max(x, 0), max(y, 0)
    x1, y1 = min(x + w, hsv.shape[1]), min(y + h, hsv.shape[0])
    hist = cv2.calcHist([hsv[y0:y1, x0:x1]], [0], mask[y0:y1, x0:x1],
                        [bins], [0, 180])
    cv2.normalize(hist, hist, 0, 255, cv2.NORM_MINMAX)
    return hist.ravel()


def run_backproject(args, starts, output):
    """clbackproject computes each track's probability image on the device;
    cv2.CamShift() tracks on it here."""
    tracks = {}
    decode = Stage(f"{DECODE} ! appsink name=sink sync=false")
    decode["file"].set_property("location", args.video)
    project = Stage("appsrc name=src format=time ! "
                    "clbackproject name=backproject mode=hue ! "
                    "appsink name=sink sync=false")
    backproject = project["backproject"]
    set_mask(backproject, args)
    low = np.array((0, args.min_saturation, args.min_value), np.float64)
    high = np.array((180, 255, args.max_value), np.float64)
    try:
        decode.start()
        index = 0
        while args.frames is None or index < args.frames:
            sample = decode.pull()
            if sample is None:
                break
            buffer = sample.get_buffer()
            image = None
            if starts.wanted(index):
                image = frame_array(sample, 3)
                found = starts.find(index, image, tracks)
                if found:
                    hsv = cv2.cvtColor(image, cv2.COLOR_BGR2HSV)
                    mask = cv2.inRange(hsv, low, high)
                for i, window in found:
                    t = tracks[i] = Track(window)
                    t.lost = window[2] < 1 or window[3] < 1
                    if not t.lost:
                        t.model = hue_model(hsv, mask, window, args.bins)
            for i, t in sorted(tracks.items()):
                if t.lost:
                    continue
                if project["src"].get_property("caps") is None:
                    project["src"].set_property("caps", sample.get_caps())
                    project.start()
                backproject.set_property(
                    "model", Gst.ValueArray([float(v) for v in t.model]))
                project.push(buffer)
                prob = project.pull()
                if prob is None:
                    raise PipelineError("clbackproject ended the stream")
                prob = frame_array(prob, 1)
                t.box, t.window = cv2.CamShift(prob, t.window, CRITERIA)
                t.window = tuple(int(v) for v in t.window)
                t.lost = t.window[2] < 1 or t.window[3] < 1
            report(index, buffer.pts, tracks)
            if output.stage:
                if image is None:
                    image = frame_array(sample, 3)
                draw(image, tracks)
                output.write(image, sample.get_caps(), buffer)
            index += 1
    finally:
        decode.stop()
        project.stop()


def window_arg(text):
    try:
        window = [int(v) for v in text.split(",")]
    except ValueError:
        window = []
    if len(window) != 4 or window[2] < 1 or window[3] < 1:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give X,Y,WIDTH,HEIGHT in pixels, e.g. 240,200,90,90")
    return window


def parse_args():
    p = argparse.ArgumentParser(
        description="Track faces (or a window's colours) through a video "
        "with OpenCV's CamShift on an OpenCL device: clcamshift, or "
        "clbackproject and cv2.CamShift() here. Prints one line per frame "
        "and track: frame, time (s), id, the search window x,y,w,h and the "
        "rotated box (centre, width x height, angle in degrees).",
        epilog="Example: scripts/fetch-samples.sh; examples/camshift.py "
        "data/Megamind.avi --detect --redetect 12 --bins 45 "
        "--min-saturation 120 --min-value 60 --output /tmp/faces.mkv "
        "(finer hue bins and a stricter mask than the defaults keep the "
        "boxes off the clip's warm background).")
    p.add_argument("video", help="the video file")
    start = p.add_mutually_exclusive_group(required=True)
    start.add_argument("--window", type=window_arg, metavar="X,Y,W,H",
                       help="track what this window holds on frame --start")
    start.add_argument("--detect", nargs="?", const=DEFAULT_CASCADE,
                       metavar="CASCADE.xml",
                       help="start a track from each face an OpenCV Haar "
                       "cascade finds, from frame --start on (default "
                       "cascade: data/haarcascade_frontalface_default.xml)")
    p.add_argument("--start", type=int, default=0, metavar="N",
                   help="the frame (from 0) where the window applies or the "
                   "detector starts looking (default 0)")
    p.add_argument("--redetect", type=int, default=0, metavar="N",
                   help="with --detect: run the detector again N frames "
                   "after it last found faces, restarting their tracks "
                   "(default 0: only until it first finds faces)")
    p.add_argument("--backproject", action="store_true",
                   help="clbackproject on the device and cv2.CamShift() in "
                   "the application, in place of clcamshift")
    out = p.add_mutually_exclusive_group()
    out.add_argument("--output", metavar="OUT.mkv",
                     help="write the video with the boxes drawn (VP8, "
                     "Matroska)")
    out.add_argument("--display", action="store_true",
                     help="show the video with the boxes drawn")
    p.add_argument("--frames", type=int, metavar="N",
                   help="stop after N frames")
    p.add_argument("--device", metavar="DEV",
                   help="the OpenCL device: auto, P:D as clinfo -l numbers "
                   "them, or part of its name")
    p.add_argument("--bins", type=int, default=16,
                   help="hue bins of the model (default 16)")
    p.add_argument("--min-saturation", type=int, default=60, metavar="S",
                   help="pixels of lower HSV saturation are not the target "
                   "(default 60)")
    p.add_argument("--min-value", type=int, default=32, metavar="V",
                   help="pixels of lower HSV value are not the target "
                   "(default 32)")
    p.add_argument("--max-value", type=int, default=255, metavar="V",
                   help="pixels of higher HSV value are not the target "
                   "(default 255)")
    args = p.parse_args()
    if args.redetect and not args.detect:
        p.error("--redetect needs --detect")
    if args.start < 0 or args.redetect < 0:
        p.error("--start and --redetect take a frame count of 0 or more")
    if not 1 <= args.bins <= 180:
        p.error("--bins: 1..180")
    if not all(0 <= v <= 255 for v in (args.min_saturation, args.min_value,
                                       args.max_value)):
        p.error("--min-saturation, --min-value, --max-value: 0..255")
    if not os.path.isfile(args.video):
        p.error(f"{args.video}: no such file")
    if args.detect and not os.path.isfile(args.detect):
        p.error(f"{args.detect}: no such file (scripts/fetch-samples.sh "
                "fetches the default cascade)")
    return args


def main():
    args = parse_args()
    Gst.init(None)
    for name in ("clcamshift", "clbackproject"):
        if Gst.ElementFactory.find(name) is None:
            sys.exit(f"camshift.py: no {name} element: set GST_PLUGIN_PATH "
                     "to the build's gst or install the plugin")
    output = None
    try:
        output = Output(args)
        starts = Starts(args)
        if args.backproject:
            run_backproject(args, starts, output)
        else:
            run_camshift(args, starts, output)
        output.close()
    except PipelineError as e:
        if output and output.stage:
            output.stage.stop()
        sys.exit(f"camshift.py: {e}")
    except KeyboardInterrupt:
        if output:
            output.close()


if __name__ == "__main__":
    main()
