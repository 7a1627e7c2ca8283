#!/usr/bin/env python3
# SPDX-License-Identifier: LGPL-2.1-or-later
"""Faces found by GStreamer's facedetect (the OpenCV plugin, Debian's
gstreamer1.0-opencv) and followed by clcamshift, in one pipeline, the
detector running every N frames only:

    filesrc ! decodebin ! videoconvert ! video/x-raw,format=RGB !
    facedetect display=false updates=on_face profile=CASCADE.xml !
    clcamshift post-messages=false ! fakesink    (appsink with --output)

Everything happens in the streaming thread, on the frame in hand:

* a probe on facedetect's sink pad turns the detector on for the frame
  every N frames, and on every frame while no track is live, and off on
  the others. facedetect has no property for that; its min-stddev skips
  the cascade on a frame whose grey standard deviation is under it, which
  no 8-bit frame reaches at 255: min-stddev=0 looks, 255 does not (then
  facedetect only converts the frame to grey and measures it);
* facedetect posts the faces it found as a "facedetect" message, read
  synchronously from the bus (sync-message::element) while the frame is
  still in facedetect. (It marks them with "face" ROI metas too, but all
  with id 0, and gst-python 1.22 cannot list a buffer's metas);
* a probe on clcamshift's sink pad starts tracks from the faces of the
  frame with clcamshift's start-track, which applies to that very frame:
  a face whose centre lies in a live track's search window restarts that
  track there (same id: a new model, the window where the face is now,
  whatever it drifted to), every other face a new track (ids from 1); a
  track in which no face was found on --misses detections in a row ends
  (stop-track);
* a probe on clcamshift's source pad reads each track's "camshift" ROI
  meta (its search window, rotated box, confidence and lost flag); a lost
  track ends (stop-track, from the next frame on).

The faces are looked for again every N frames: the detector's cost is
paid on one frame in N, and between detections CamShift follows each
face by its colours. A larger N costs less but lets a track drift longer
(over the neck, the hair, a background of the face's hues) before a
detection puts it back on the face; a track lost in between (its
probability mass under clcamshift's min-mass for lost-frames frames: at
a cut, a face turning away) ends at once, and while no track is live the
detector looks on every frame.

It prints a line per frame and track, and one for each detection and each
start, restart and end of a track:

    frame 13 time 0.501 detect 273,196,174,174 433,192,82,82
    frame 13 time 0.501 id 1 redetect 273,196,174,174 window 241,153,160,338
    frame 13 time 0.501 id 1 window 264,169,129,206 box 328.50,272.00 \
143.64x230.03 27.46 confidence 1.00
    frame 102 time 4.254 id 1 lost

(the frame from 0 and its timestamp in seconds; "detect" and the faces
facedetect found as x,y,width,height, "none" for none; "start" for a new
track from a face, "redetect" for a track started again from a face,
with the search window it had; "stop" for a track no face was found in;
then each live track's search window for the next frame, its rotated box
as centre x,y, width x height and angle in degrees, as OpenCV's
RotatedRect, and its confidence; "lost" when clcamshift reports it lost).

--output FILE.png draws the frames --at names (default: four spread over
the video) with each track's rotated box and id, and facedetect's faces on
the frames it looked at, in a picture (half size, two a row, for more than
one frame); --output FILE.mkv or FILE.webm writes the whole video with
them drawn (VP8).

The video and the cascade: scripts/fetch-samples.sh puts OpenCV's
Megamind.avi and haarcascade_frontalface_default.xml into data/. From the
build tree, set GST_PLUGIN_PATH=build/gst.
"""
import argparse
import collections
import os
import sys
import threading

# facedetect loads its nose, mouth and eye-pair cascades from opencv-data's
# directory when it is made, before this program sets the face cascade;
# without that package OpenCV logs an error for each, though none is used
# here. The face cascade is checked here (check_cascade).
os.environ.setdefault("OPENCV_LOG_LEVEL", "SILENT")

try:
    import gi

    gi.require_version("Gst", "1.0")
    gi.require_version("GstVideo", "1.0")
    from gi.repository import GLib, Gst, GstVideo
    import cv2
    import numpy as np
except (ImportError, ValueError) as e:
    sys.exit(f"facetrack.py: needs python3-gi, gir1.2-gst-plugins-base-1.0, "
             f"python3-opencv and python3-numpy ({e})")

HERE = os.path.dirname(os.path.abspath(__file__))
DEFAULT_CASCADE = os.path.normpath(os.path.join(
    HERE, os.pardir, "data", "haarcascade_frontalface_default.xml"))
# facedetect's min-stddev: 0 looks at every frame; no 8-bit frame's grey
# standard deviation reaches 255 (at most 127.5), so 255 looks at none.
LOOK, SKIP = 0, 255


def rect_text(rect):
    return ",".join(str(int(v)) for v in rect)


def time_text(pts):
    return (f"{pts / Gst.SECOND:.3f}" if pts != Gst.CLOCK_TIME_NONE
            else "none")


def centre_inside(rect, window):
    """Whether the centre of `rect` lies in `window` (x, y, w, h)."""
    x, y, w, h = rect
    wx, wy, ww, wh = window
    return wx <= x + w / 2 < wx + ww and wy <= y + h / 2 < wy + wh


def iou(a, b):
    """Intersection over union of two (x, y, w, h) rectangles."""
    w = min(a[0] + a[2], b[0] + b[2]) - max(a[0], b[0])
    h = min(a[1] + a[3], b[1] + b[3]) - max(a[1], b[1])
    inter = max(w, 0) * max(h, 0)
    union = a[2] * a[3] + b[2] * b[3] - inter
    return inter / union if union > 0 else 0.0


class Track:
    def __init__(self, window):
        self.window = window     # the search window (x, y, w, h)
        self.box = None          # ((cx, cy), (w, h), angle), or None
        self.misses = 0          # detections in a row without its face


class Frame:
    """What the probes learn of one frame on its way through."""

    def __init__(self, index, pts, look):
        self.index = index       # from 0
        self.pts = pts
        self.look = look         # the detector looks at it
        self.faces = []          # the faces facedetect found in it
        self.events = []         # detections, starts, stops, losses
        self.boxes = {}          # id -> rotated box, for --output


class FaceTracker:
    """The probes and the bus handler that drive facedetect and
    clcamshift (the module's doc). The frames go through in order, one at
    a time through facedetect (its sink-pad probe, then its message) and
    through clcamshift (sink, then source pad): each probe takes the
    frame's record from the one before it in that order, as the frames'
    timestamps need not tell them apart (through gst-plugins-bad's
    mpeg4videoparse, some frames of Megamind.avi carry the timestamp of
    the one before). `done` hands the records on to --output, in order
    too."""

    def __init__(self, pipeline, every, misses, frames, keep):
        self.detector = pipeline.get_by_name("detector")
        self.tracker = pipeline.get_by_name("tracker")
        self.every = every
        self.misses = misses
        self.frames = frames     # None: all
        self.keep = keep
        self.tracks = {}         # id -> Track, the live tracks
        self.next_id = 1         # facedetect's own metas carry id 0
        self.since_look = None   # frames since the detector last looked
        self.count = 0           # frames into facedetect
        self.detecting = None    # the frame in facedetect
        self.warned = False
        self.to_tracker = collections.deque()
        self.in_tracker = collections.deque()
        self.done = collections.deque()
        self.lock = threading.Lock()

        self.detector.get_static_pad("sink").add_probe(
            Gst.PadProbeType.BUFFER, self.schedule)
        self.tracker.get_static_pad("sink").add_probe(
            Gst.PadProbeType.BUFFER, self.start_tracks)
        self.tracker.get_static_pad("src").add_probe(
            Gst.PadProbeType.BUFFER, self.read_tracks)
        bus = pipeline.get_bus()
        bus.enable_sync_message_emission()
        bus.connect("sync-message::element", self.on_faces)

    def schedule(self, pad, info):
        """facedetect's sink pad: look at this frame or not; after
        --frames, the end of the stream."""
        if self.frames is not None and self.count >= self.frames:
            # From here the pad answers every frame with GST_FLOW_EOS,
            # which stops the source.
            if self.count == self.frames:
                pad.send_event(Gst.Event.new_eos())
                self.count += 1
            return Gst.PadProbeReturn.DROP
        look = (not self.tracks or self.since_look is None
                or self.since_look + 1 >= self.every)
        self.detector.set_property("min-stddev", LOOK if look else SKIP)
        self.since_look = 0 if look else self.since_look + 1
        self.detecting = Frame(self.count, info.get_buffer().pts, look)
        self.count += 1
        with self.lock:
            self.to_tracker.append(self.detecting)
        return Gst.PadProbeReturn.OK

    def on_faces(self, bus, message):
        """facedetect's message, posted while the frame is in it."""
        s = message.get_structure()
        if message.src is not self.detector or s.get_name() != "facedetect":
            return
        if not self.detecting.look and not self.warned:
            print(f"facetrack.py: warning: facedetect looked at frame "
                  f"{self.detecting.index}, told not to by min-stddev: the "
                  "detector runs on every frame", file=sys.stderr)
            self.warned = True
        self.detecting.faces = separate(
            [tuple(face[k] for k in ("x", "y", "width", "height"))
             for face in s.get_value("faces")])

    def start_tracks(self, pad, info):
        """clcamshift's sink pad: the frame's faces start tracks."""
        with self.lock:
            frame = self.to_tracker.popleft()
            self.in_tracker.append(frame)
        if not frame.look:
            return Gst.PadProbeReturn.OK
        frame.events.append("detect " + (" ".join(
            rect_text(f) for f in frame.faces) or "none"))
        found = set()
        for face in frame.faces:
            same = [(iou(face, t.window), i) for i, t in self.tracks.items()
                    if i not in found and centre_inside(face, t.window)]
            if same:
                i = max(same)[1]
                old = self.tracks[i].window
                frame.events.append(f"id {i} redetect {rect_text(face)} "
                                    f"window {rect_text(old)}")
            else:
                i = self.next_id
                self.next_id += 1
                frame.events.append(f"id {i} start {rect_text(face)}")
            found.add(i)
            self.tracks[i] = Track(face)
            self.tracker.emit("start-track", i, *face)
        for i, t in list(self.tracks.items()):
            if i in found:
                continue
            t.misses += 1
            if t.misses >= self.misses:
                frame.events.append(f"id {i} stop")
                self.tracker.emit("stop-track", i)
                del self.tracks[i]
        return Gst.PadProbeReturn.OK

    def read_tracks(self, pad, info):
        """clcamshift's source pad: each live track's result; a lost track
        ends."""
        buffer = info.get_buffer()
        with self.lock:
            frame = self.in_tracker.popleft()
        for i, t in sorted(self.tracks.items()):
            roi = GstVideo.buffer_get_video_region_of_interest_meta_id(
                buffer, i)
            if roi is None or GLib.quark_to_string(roi.roi_type) != \
                    "camshift":
                continue
            s = roi.get_param("camshift")
            t.window = (roi.x, roi.y, roi.w, roi.h)
            if s["lost"]:
                frame.events.append(f"id {i} lost")
                self.tracker.emit("stop-track", i)
                del self.tracks[i]
                continue
            t.box = ((s["center-x"], s["center-y"]),
                     (s["width"], s["height"]), s["angle"])
            frame.boxes[i] = t.box
            (cx, cy), (w, h), angle = t.box
            frame.events.append(
                f"id {i} window {rect_text(t.window)} box {cx:.2f},{cy:.2f} "
                f"{w:.2f}x{h:.2f} {angle:.2f} confidence "
                f"{s['confidence']:.2f}")
        head = f"frame {frame.index} time {time_text(frame.pts)}"
        for event in frame.events:
            print(f"{head} {event}")
        if self.keep:
            with self.lock:
                self.done.append(frame)
        return Gst.PadProbeReturn.OK

    def next_done(self):
        """The record of the next frame out of clcamshift."""
        with self.lock:
            return self.done.popleft()


def separate(faces):
    """The faces, biggest first, without those whose centre lies in a
    bigger one (the cascade finds a face in a face at times)."""
    kept = []
    for face in sorted(faces, key=lambda f: (-f[2] * f[3], f)):
        if not any(centre_inside(face, k) for k in kept):
            kept.append(face)
    return kept


def draw(image, faces, boxes):
    """facedetect's faces (white) and each track's rotated box (green)
    and id on `image` (RGB)."""
    for x, y, w, h in faces or ():
        cv2.rectangle(image, (x, y), (x + w - 1, y + h - 1),
                      (255, 255, 255), 2)
    for i, box in sorted(boxes.items()):
        corners = np.int32(np.round(cv2.boxPoints(box)))
        cv2.polylines(image, [corners], True, (0, 255, 0), 3)
        # The id above the box's top left, or inside it at the frame's top.
        x, y = (int(v) for v in corners.min(axis=0))
        x = min(max(x, 0), image.shape[1] - 40)
        y = y - 10 if y >= 40 else max(y, 0) + 34
        cv2.putText(image, str(i), (x, y), cv2.FONT_HERSHEY_SIMPLEX, 1.1,
                    (0, 255, 0), 3)


def frame_array(sample):
    """A copy of the sample's RGB frame as an H x W x 3 array."""
    info = GstVideo.VideoInfo.new_from_caps(sample.get_caps())
    buffer = sample.get_buffer()
    meta = GstVideo.buffer_get_video_meta(buffer)
    offset, stride = ((meta.offset[0], meta.stride[0]) if meta
                      else (info.offset[0], info.stride[0]))
    ok, mapped = buffer.map(Gst.MapFlags.READ)
    if not ok:
        raise RuntimeError("could not map a frame")
    try:
        data = np.frombuffer(mapped.data, np.uint8)
        rows = np.lib.stride_tricks.as_strided(
            data[offset:], (info.height, info.width * 3), (stride, 1))
        return rows.reshape(info.height, info.width, 3).copy()
    finally:
        buffer.unmap(mapped)


class Picture:
    """--output FILE.png: the frames `at` drawn, in one picture."""

    def __init__(self, path, at):
        self.path = path
        self.at = at
        self.images = {}

    def add(self, index, image, caps, buffer):
        if index in self.at:
            self.images[index] = image

    def close(self, error):
        if error:
            return
        missing = sorted(set(self.at) - set(self.images))
        if missing:
            raise RuntimeError(f"--at: the video has no frame {missing[0]}")
        images = [self.images[i] for i in self.at]
        if len(images) > 1:
            images = [cv2.resize(im, (im.shape[1] // 2, im.shape[0] // 2),
                                 interpolation=cv2.INTER_AREA)
                      for im in images]
            if len(images) % 2:
                images.append(np.zeros_like(images[0]))
            rows = [np.hstack(images[i:i + 2])
                    for i in range(0, len(images), 2)]
            picture = np.vstack(rows)
        else:
            picture = images[0]
        if not cv2.imwrite(self.path, cv2.cvtColor(picture,
                                                   cv2.COLOR_RGB2BGR),
                           [cv2.IMWRITE_PNG_COMPRESSION, 9]):
            raise RuntimeError(f"{self.path}: could not write the picture")


class Video:
    """--output FILE.mkv or FILE.webm: the video drawn, VP8."""

    def __init__(self, path):
        mux = "webmmux" if path.endswith(".webm") else "matroskamux"
        self.pipeline = Gst.parse_launch(
            "appsrc name=src format=time block=true ! videoconvert ! "
            "vp8enc target-bitrate=4000000 deadline=1 cpu-used=4 ! "
            f"{mux} ! filesink name=out")
        self.pipeline.get_by_name("out").set_property("location", path)
        self.src = self.pipeline.get_by_name("src")

    def add(self, index, image, caps, buffer):
        if self.src.get_property("caps") is None:
            self.src.set_property("caps", caps)
            self.pipeline.set_state(Gst.State.PLAYING)
        info = GstVideo.VideoInfo.new_from_caps(caps)
        rows = np.zeros((info.height, info.stride[0]), np.uint8)
        rows[:, :info.width * 3] = image.reshape(info.height, -1)
        out = Gst.Buffer.new_wrapped(rows.tobytes())
        out.pts, out.duration = buffer.pts, buffer.duration
        if self.src.emit("push-buffer", out) != Gst.FlowReturn.OK:
            raise RuntimeError(f"the encoder stopped: {bus_error(self)}")

    def close(self, error):
        if self.src.get_property("caps") is not None and not error:
            self.src.emit("end-of-stream")
            msg = self.pipeline.get_bus().timed_pop_filtered(
                Gst.CLOCK_TIME_NONE,
                Gst.MessageType.EOS | Gst.MessageType.ERROR)
            if msg.type == Gst.MessageType.ERROR:
                raise RuntimeError(f"{msg.src.get_name()}: "
                                   f"{msg.parse_error()[0].message}")
        self.pipeline.set_state(Gst.State.NULL)


def bus_error(stage):
    msg = stage.pipeline.get_bus().pop_filtered(Gst.MessageType.ERROR)
    return msg.parse_error()[0].message if msg else "no error posted"


def default_at(pipeline):
    """Four frames spread over the video (from its duration and frame
    rate, the pipeline paused), or frame 0 where they are unknown."""
    pad = pipeline.get_by_name("tracker").get_static_pad("src")
    caps = pad.get_current_caps()
    ok, duration = pipeline.query_duration(Gst.Format.TIME)
    if not ok or caps is None:
        return [0]
    ok, num, den = caps.get_structure(0).get_fraction("framerate")
    if not ok or num <= 0:
        return [0]
    frames = duration * num // (den * Gst.SECOND)
    return [frames * k // 8 for k in (1, 3, 5, 7)]


def run(args):
    sink = ("appsink name=sink sync=false" if args.output
            else "fakesink sync=false")
    pipeline = Gst.parse_launch(
        "filesrc name=file ! decodebin ! videoconvert ! "
        "video/x-raw,format=RGB ! "
        "facedetect name=detector display=false updates=on_face ! "
        f"clcamshift name=tracker post-messages=false ! {sink}")
    pipeline.get_by_name("file").set_property("location", args.video)
    detector = pipeline.get_by_name("detector")
    detector.set_property("profile", args.cascade)
    detector.set_property("min-neighbors", args.min_neighbors)
    detector.set_property("min-size-width", args.min_size)
    detector.set_property("min-size-height", args.min_size)
    tracker = pipeline.get_by_name("tracker")
    for name in ("bins", "min-saturation", "min-value", "max-value",
                 "min-mass"):
        tracker.set_property(name, getattr(args, name.replace("-", "_")))
    if args.device:
        tracker.set_property("device", args.device)
    faces = FaceTracker(pipeline, args.every, args.misses, args.frames,
                        bool(args.output))
    output = None
    error = True
    bus = pipeline.get_bus()
    try:
        if args.output and args.output.endswith(".png"):
            at = args.at
            if at is None:
                if pipeline.set_state(Gst.State.PAUSED) == \
                        Gst.StateChangeReturn.FAILURE or \
                        pipeline.get_state(Gst.CLOCK_TIME_NONE)[0] == \
                        Gst.StateChangeReturn.FAILURE:
                    raise RuntimeError(pipeline_error(bus))
                at = default_at(pipeline)
            output = Picture(args.output, at)
        elif args.output:
            output = Video(args.output)
        if pipeline.set_state(Gst.State.PLAYING) == \
                Gst.StateChangeReturn.FAILURE:
            raise RuntimeError(pipeline_error(bus))
        if output:
            pull(pipeline, faces, output)
        else:
            msg = bus.timed_pop_filtered(
                Gst.CLOCK_TIME_NONE,
                Gst.MessageType.EOS | Gst.MessageType.ERROR)
            if msg.type == Gst.MessageType.ERROR:
                raise RuntimeError(f"{msg.src.get_name()}: "
                                   f"{msg.parse_error()[0].message}")
        error = False
    finally:
        pipeline.set_state(Gst.State.NULL)
        if output:
            output.close(error)


def pull(pipeline, faces, output):
    """Draws each frame the appsink hands over into `output`, until the
    end of the stream (an error raises)."""
    sink = pipeline.get_by_name("sink")
    bus = pipeline.get_bus()
    index = 0
    while True:
        sample = sink.emit("try-pull-sample", 100 * Gst.MSECOND)
        msg = bus.pop_filtered(Gst.MessageType.ERROR)
        if msg:
            raise RuntimeError(f"{msg.src.get_name()}: "
                               f"{msg.parse_error()[0].message}")
        if sample is None:
            if sink.get_property("eos"):
                return
            continue
        buffer = sample.get_buffer()
        frame = faces.next_done()
        image = frame_array(sample)
        draw(image, frame.faces if frame.look else None, frame.boxes)
        output.add(index, image, sample.get_caps(), buffer)
        index += 1


def pipeline_error(bus):
    msg = bus.pop_filtered(Gst.MessageType.ERROR)
    if msg:
        return f"{msg.src.get_name()}: {msg.parse_error()[0].message}"
    return "the pipeline did not start"


def check_cascade(path):
    """facedetect takes a cascade it cannot read without a word (it then
    finds nothing): read it here first."""
    try:
        ok = not cv2.CascadeClassifier(path).empty()
    except (cv2.error, SystemError):
        ok = False
    return ok


def frames_arg(text):
    try:
        frames = [int(v) for v in text.split(",")]
    except ValueError:
        frames = []
    if not frames or min(frames) < 0:
        raise argparse.ArgumentTypeError(
            f"{text!r}: give frame numbers from 0, e.g. 24,100,160,230")
    return frames


def parse_args():
    p = argparse.ArgumentParser(
        description="Follow faces through a video in one GStreamer "
        "pipeline: facedetect (gstreamer1.0-opencv) finds them every N "
        "frames, clcamshift follows them in between. Prints a line per "
        "frame and track: frame, time (s), id, the search window x,y,w,h, "
        "the rotated box (centre, width x height, angle in degrees) and "
        "the confidence; and one per detection, track start, restart "
        "(redetect), stop and loss.",
        epilog="Example: scripts/fetch-samples.sh; examples/facetrack.py "
        "data/Megamind.avi --every 12 --bins 45 --min-saturation 120 "
        "--min-value 60 --min-mass 0.25 --output /tmp/faces.mkv")
    p.add_argument("video", help="the video file")
    p.add_argument("--every", type=int, default=12, metavar="N",
                   help="run the detector every N frames (and on every "
                   "frame while no track is live; default 12)")
    p.add_argument("--misses", type=int, default=2, metavar="M",
                   help="end a track that no face was found in on M "
                   "detections in a row (default 2)")
    p.add_argument("--output", metavar="FILE",
                   help="FILE.png: the frames --at names with the tracks "
                   "drawn, in one picture; FILE.mkv or FILE.webm: the video "
                   "with the tracks drawn (VP8)")
    p.add_argument("--at", type=frames_arg, metavar="F[,F...]",
                   help="with --output FILE.png: the frames (from 0) to "
                   "draw (default: four spread over the video)")
    p.add_argument("--frames", type=int, metavar="N",
                   help="stop after N frames")
    p.add_argument("--cascade", default=DEFAULT_CASCADE, metavar="XML",
                   help="facedetect's profile, an OpenCV Haar cascade "
                   "(default data/haarcascade_frontalface_default.xml, from "
                   "scripts/fetch-samples.sh)")
    p.add_argument("--min-neighbors", type=int, default=3, metavar="K",
                   help="facedetect's min-neighbors (default 3)")
    p.add_argument("--min-size", type=int, default=30, metavar="PX",
                   help="facedetect's min-size-width and -height (default "
                   "30)")
    p.add_argument("--min-mass", type=float, default=0.1, metavar="C",
                   help="clcamshift's min-mass: a track whose confidence "
                   "stays under C for 5 frames is lost (default 0.1)")
    p.add_argument("--device", metavar="DEV",
                   help="clcamshift's OpenCL device: auto, P:D as clinfo -l "
                   "numbers them, or part of its name")
    p.add_argument("--bins", type=int, default=16,
                   help="hue bins of the tracks' models (default 16)")
    p.add_argument("--min-saturation", type=int, default=60, metavar="S",
                   help="pixels of lower HSV saturation are not the face "
                   "(default 60)")
    p.add_argument("--min-value", type=int, default=32, metavar="V",
                   help="pixels of lower HSV value are not the face "
                   "(default 32)")
    p.add_argument("--max-value", type=int, default=255, metavar="V",
                   help="pixels of higher HSV value are not the face "
                   "(default 255)")
    args = p.parse_args()
    if args.every < 1 or args.misses < 1:
        p.error("--every and --misses take a count from 1")
    if args.frames is not None and args.frames < 1:
        p.error("--frames takes a count from 1")
    if args.min_neighbors < 0 or args.min_size < 0:
        p.error("--min-neighbors and --min-size take 0 or more")
    if not 0 <= args.min_mass <= 1:
        p.error("--min-mass: 0..1")
    if not 1 <= args.bins <= 180:
        p.error("--bins: 1..180")
    if not all(0 <= v <= 255 for v in (args.min_saturation, args.min_value,
                                       args.max_value)):
        p.error("--min-saturation, --min-value, --max-value: 0..255")
    if args.output and not args.output.endswith((".png", ".mkv", ".webm")):
        p.error("--output: FILE.png, FILE.mkv or FILE.webm")
    if args.at and not (args.output or "").endswith(".png"):
        p.error("--at needs --output FILE.png")
    if not os.path.isfile(args.video):
        p.error(f"{args.video}: no such file")
    if not os.path.isfile(args.cascade):
        p.error(f"{args.cascade}: no such file (scripts/fetch-samples.sh "
                "fetches the default cascade)")
    if not check_cascade(args.cascade):
        p.error(f"{args.cascade}: not an OpenCV cascade")
    return args


def main():
    args = parse_args()
    Gst.init(None)
    if Gst.ElementFactory.find("facedetect") is None:
        sys.exit("facetrack.py: no facedetect element: install GStreamer's "
                 "OpenCV plugin (Debian: apt-get install gstreamer1.0-opencv)")
    if Gst.ElementFactory.find("clcamshift") is None:
        sys.exit("facetrack.py: no clcamshift element: set GST_PLUGIN_PATH "
                 "to the build's gst or install the plugin")
    try:
        run(args)
    except (RuntimeError, GLib.Error) as e:
        sys.exit(f"facetrack.py: {e}")


if __name__ == "__main__":
    main()
