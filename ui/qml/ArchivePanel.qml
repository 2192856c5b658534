// The archive timeline strip: an archive file's streams, one lane each on a shared time axis (seconds
// from sample 0, as io.archive_source and isochron-archive count), with what is stored, what only some
// channels hold, the gaps, and stored events as ticks; the lanes follow what a recorder adds by
// themselves (Reload reads at once). Drag across a lane to choose an interval, then replay it through
// the graph (an io.archive_source), or show an event lane's localization events in the Localization tab.
// A signal lane draws its samples' envelope (min and max per pixel column, read off the UI thread).
// The playhead (click the ruler or a lane) shows its time in seconds and UTC; dragging it (on the
// ruler, or its line in a lane) plays short grains of the audio under it, holding it still plays from
// there; Space plays or stops from it, Left and Right nudge it.
// The strip zooms around the pointer (wheel, or + and − once clicked) and pans (shift or middle drag,
// horizontal scroll, shift+arrow keys); F or Fit shows the whole file again.
// C++: ArchiveTimelineModel, ArchiveSignals (ui/archive).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: panel
    property GraphDocument document
    property RecentFiles recent
    readonly property alias timeline: timeline
    readonly property alias laneSignals: laneSignals
    readonly property real labelWidth: 260
    /// The part of the axis the lanes show (seconds): all of it, until zoomed in; `zoomed` while it is a part.
    property real viewStart: 0
    property real viewEnd: 0
    property bool zoomed: false
    /// The narrowest view (seconds): ten milliseconds across the strip.
    readonly property real minSpan: 0.01
    readonly property real span: Math.max(viewEnd - viewStart, 1e-9)
    /// The interval chosen by dragging across a lane: its stream ("" for none), kind, channels and times.
    property string chosenStream
    property string chosenKind
    property string chosenItemKind
    property int chosenChannels: 1
    property real chosenFrom: 0
    property real chosenTo: 0
    /// The chosen interval to the millisecond, widened outwards (a dragged interval is no more exact
    /// than that, reads better in the inspector, and keeps an event at either edge).
    readonly property real intervalFrom: Math.floor(Math.min(chosenFrom, chosenTo) * 1000) / 1000
    readonly property real intervalTo: Math.ceil(Math.max(chosenFrom, chosenTo) * 1000) / 1000
    readonly property bool canReplay: chosenStream.length > 0 && intervalTo > intervalFrom
    readonly property bool canShowPast: canReplay && chosenKind === "events"
    /// The playhead (seconds from sample 0), whether it was placed, and the signal stream it plays.
    property real playhead: 0
    property bool playheadShown: false
    property string playheadStream
    /// Why the last play-back did not start (no output device …), or empty.
    property string playMessage
    /// Length of a scrubbing grain, and how long a play from the playhead lasts at most (seconds).
    readonly property real grainSeconds: 0.08
    readonly property real playSeconds: 30
    /// "Replay this interval through the graph" was pressed (Main adds the io.archive_source);
    /// `type` is signal<f32>, event or scalar.
    signal replayRequested(string path, string stream, string type, int channels, real from, real duration)
    /// "Show in Localization tab" was pressed on an event lane's interval.
    signal showPastRequested(string path, string stream, real from, real to)
    color: Theme.panelAlt
    // The lanes are read again as the file grows: a choice stays while its stream is there.
    Connections {
        target: timeline
        // A zoomed view stays where it is as the file grows; an unzoomed one shows all of it.
        function onLoaded() {
            if (timeline.rowOf(panel.chosenStream) < 0) panel.chosenStream = ""
            if (panel.zoomed) panel.setView(panel.viewStart, panel.viewEnd)
            else panel.fit()
        }
        function onPathChanged() { panel.zoomed = false; panel.chosenStream = ""; panel.stopPlaying(); panel.playheadShown = false; panel.playheadStream = "" }
    }

    /// Show the whole axis.
    function fit() { zoomed = false; viewStart = timeline.axisStart; viewEnd = timeline.axisEnd }
    /// Show [a, b] seconds, kept inside the axis and no narrower than minSpan; all of it is fit().
    function setView(a, b) {
        const full = timeline.axisEnd - timeline.axisStart
        const width = Math.min(Math.max(b - a, minSpan), full)
        if (width >= full) { fit(); return }
        const start = Math.min(Math.max(a, timeline.axisStart), timeline.axisEnd - width)
        viewStart = start
        viewEnd = start + width
        zoomed = true
    }
    /// Zoom by `factor` (< 1 in) keeping time `t` where it is on the strip.
    function zoomAround(t, factor) {
        const start = t - (t - viewStart) * factor
        setView(start, start + span * factor)
    }
    function zoomBy(factor) { zoomAround((viewStart + viewEnd) / 2, factor) }
    /// Move the view by `seconds` (later when positive).
    function panBy(seconds) { if (zoomed) setView(viewStart + seconds, viewEnd + seconds) }
    /// Show the chosen interval with a tenth of it either side.
    function zoomToChosen() {
        if (!canReplay) return
        const margin = (intervalTo - intervalFrom) / 10
        setView(intervalFrom - margin, intervalTo + margin)
    }
    /// Put the playhead at `t` (kept on the axis); a signal `stream` becomes the one it plays.
    function setPlayhead(t, stream) {
        playhead = Math.min(Math.max(t, timeline.axisStart), timeline.axisEnd)
        playheadShown = true
        if (stream && stream.length) playheadStream = stream
        if (!playheadStream.length || timeline.rowOf(playheadStream) < 0) playheadStream = laneSignals.firstSignalStream()
    }
    /// Play `seconds` from the playhead; a failure (no sound card on CI) shows why and plays nothing.
    function playAt(from, seconds) {
        if (!playheadStream.length) { playMessage = qsTr("No signal lane to play"); return false }
        playMessage = laneSignals.play(playheadStream, from, seconds)
        return playMessage.length === 0
    }
    /// Play from the playhead on, the playhead following, until stopped or the clip ends.
    function playFromPlayhead() {
        if (!playheadShown) setPlayhead(viewStart, "")
        if (playAt(playhead, playSeconds)) follow.begin(playhead)
    }
    function stopPlaying() { follow.stop(); laneSignals.stop() }
    function togglePlay() { if (laneSignals.playing) stopPlaying(); else playFromPlayhead() }
    /// Move the playhead by `seconds`, scrubbing a grain there.
    function nudgePlayhead(seconds) { stopPlaying(); setPlayhead(playhead + seconds, ""); playAt(playhead, grainSeconds) }
    /// The playhead's time as "12.345 s" and, for a stream on the wall clock, its UTC.
    function playheadText() {
        const utc = laneSignals.utcText(playheadStream, playhead)
        return qsTr("Playhead %1 s").arg(playhead.toFixed(3)) + (utc.length ? "  ·  " + utc : "") + (playheadStream.length ? "  ·  " + playheadStream : "")
    }
    /// Scrubbing: a press puts the playhead there, a drag plays grains along, a press held still plays from it.
    function scrubPress(t, stream) { stopPlaying(); setPlayhead(t, stream); scrubHold.restart() }
    function scrubMove(t) {
        scrubHold.stop()
        setPlayhead(t, "")
        if (!grainClock.running) { playAt(playhead, grainSeconds); grainClock.start() }
    }
    function scrubRelease() { scrubHold.stop(); if (!follow.running) laneSignals.stop() }
    Timer { id: scrubHold; interval: 400; onTriggered: panel.playFromPlayhead() }
    Timer { id: grainClock; interval: panel.grainSeconds * 1000 }  // a grain at most this often while dragging
    Timer {  // moves the playhead along while a play from it sounds
        id: follow
        interval: 30
        repeat: true
        property real from: 0
        property real began: 0
        function begin(t) { from = t; began = Date.now(); start() }
        onTriggered: {
            if (!laneSignals.playing) { stop(); return }
            panel.playhead = Math.min(from + (Date.now() - began) / 1000, timeline.axisEnd)
        }
    }

    /// Zoom and pan keys (the strip has them once clicked); whether `event` was one.
    function viewKey(event, act) {
        const plain = !(event.modifiers & (Qt.AltModifier | Qt.MetaModifier))
        if (!plain || timeline.count === 0) return false
        let action = null
        switch (event.key) {
        case Qt.Key_Plus: case Qt.Key_Equal: action = () => zoomBy(0.5); break
        case Qt.Key_Minus: case Qt.Key_Underscore: action = () => zoomBy(2); break
        case Qt.Key_F: case Qt.Key_0: if (!(event.modifiers & Qt.ShiftModifier)) action = () => fit(); break
        case Qt.Key_Z: if (!(event.modifiers & (Qt.ControlModifier | Qt.ShiftModifier))) action = () => zoomToChosen(); break
        case Qt.Key_Left: case Qt.Key_Right: {  // shift pans a quarter of the view; plain nudges the playhead a hundredth
            const sign = event.key === Qt.Key_Left ? -1 : 1
            if (event.modifiers & Qt.ShiftModifier) action = () => panBy(sign * span / 4)
            else if (playheadShown) action = () => nudgePlayhead(sign * span / 100)
            else action = () => panBy(sign * span / 4)
            break
        }
        case Qt.Key_Space: if (!(event.modifiers & (Qt.ControlModifier | Qt.ShiftModifier))) action = () => togglePlay(); break
        }
        if (!action) return false
        if (act) action()
        return true
    }

    function replayChosen() {
        if (!canReplay) return
        const duration = Math.round((intervalTo - intervalFrom) * 1000) / 1000  // 2.312, not 2.3120000000000003
        replayRequested(timeline.path, chosenStream, chosenKind === "signal" ? "signal<f32>" : chosenItemKind, chosenChannels, intervalFrom, duration)
    }
    function showChosenInLocalization() { if (canShowPast) showPastRequested(timeline.path, chosenStream, intervalFrom, intervalTo) }

    /// The archive the graph's "Record this wire" writes into (resolved beside the graph file), or "".
    // With no file open, the graph's archive opens by itself once it exists (a recording made it),
    // so a run with recorded wires shows up here without a click.
    Timer {
        objectName: "graphArchiveWatch"
        interval: 1000
        repeat: true
        running: panel.visible && timeline.path.length === 0
        triggeredOnStart: true
        onTriggered: timeline.openIfExists(panel.graphArchive())
    }
    function graphArchive() {
        if (!document || !document.baseDirectory.length) return ""
        return document.baseDirectory + "/" + document.defaultArchivePath()
    }
    /// Open the file dialog (the editor's own FilePicker, as File > Open does).
    function chooseFile() {
        const folder = timeline.path.length ? timeline.path.substring(0, timeline.path.lastIndexOf("/")) : (document ? document.baseDirectory : "")
        archiveDialog.openIn(folder, "")
    }
    /// x of time `t` (seconds) in a lane `width` wide.
    function xOf(t, width) { return (t - viewStart) / span * width }
    /// Time (seconds) at x in a lane `width` wide, within the view; within 4 px of either end, that end
    /// (the axis begins at the first stored instant, an event's tick sits on the edge: a drag from there takes it).
    function timeAt(x, width) { return viewStart + (x <= 4 ? 0 : x >= width - 4 ? 1 : x / width) * span }

    ArchiveTimelineModel { id: timeline }
    ArchiveSignals { id: laneSignals; timeline: timeline }

    ColumnLayout {
        anchors.fill: parent
        anchors.margins: 8
        spacing: 6

        RowLayout {
            Layout.fillWidth: true
            spacing: 6
            Button { objectName: "openArchiveButton"; text: qsTr("Open archive…"); onClicked: panel.chooseFile() }
            Button {
                objectName: "openGraphArchiveButton"
                text: qsTr("This graph's archive")
                enabled: panel.graphArchive().length > 0
                ToolTip.visible: hovered
                ToolTip.text: enabled ? panel.graphArchive() : qsTr("Save the graph first: its archive sits beside it")
                onClicked: timeline.open(panel.graphArchive())
            }
            Button {
                objectName: "reloadArchiveButton"
                text: qsTr("Reload")
                enabled: timeline.path.length > 0
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Read the file now (the lanes also follow it by themselves, twice a second)")
                onClicked: timeline.reload()
            }
            Button {
                objectName: "zoomOutButton"
                implicitWidth: 32
                text: "−"
                enabled: panel.zoomed
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Zoom out (−, or the mouse wheel over a lane)")
                onClicked: panel.zoomBy(2)
            }
            Button {
                objectName: "zoomInButton"
                implicitWidth: 32
                text: "+"
                enabled: timeline.count > 0 && panel.span > panel.minSpan * 1.001
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Zoom in (+, or the mouse wheel over a lane, around the pointer); pan with shift or middle drag, horizontal scroll or the arrow keys")
                onClicked: panel.zoomBy(0.5)
            }
            Button {
                objectName: "fitArchiveButton"
                text: qsTr("Fit")
                enabled: panel.zoomed
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Show the whole archive (F); Z shows the chosen interval")
                onClicked: panel.fit()
            }
            Text {
                objectName: "archiveStatus"
                Layout.fillWidth: true
                elide: Text.ElideMiddle
                font.pixelSize: Theme.smallFontSize
                color: timeline.error.length ? Theme.error : Theme.textDim
                text: timeline.loading ? qsTr("Reading %1…").arg(timeline.path)
                      : timeline.error.length ? timeline.error + qsTr(" (read again as soon as the file changes)")
                      : timeline.path.length ? qsTr("%1 — %n stream(s)", "", timeline.count).arg(timeline.path)
                                               + (timeline.checking ? qsTr("; checking every page for damage…") : "")
                      : qsTr("Open an archive file (SQLite) that io.archive_sink wrote, e.g. with Record this wire (Ctrl+R)")
            }
        }

        Text {  // lanes drawn from a damaged file look whole: say that reading their samples fails
            objectName: "archiveDamage"
            Layout.fillWidth: true
            visible: timeline.damage.length > 0
            wrapMode: Text.Wrap
            font.pixelSize: Theme.smallFontSize
            color: Theme.error
            text: qsTr("The lanes below may look whole, but reading samples fails: %1").arg(timeline.damage)
        }

        Item {  // the time axis: round ticks of the view, in hours, minutes or seconds as its span calls for
            id: axis
            Layout.fillWidth: true
            Layout.preferredHeight: 16
            visible: timeline.count > 0
            readonly property real stripWidth: width - panel.labelWidth
            Text {  // what the view shows, when it is a part
                objectName: "viewInterval"
                width: panel.labelWidth - 8
                elide: Text.ElideRight
                font.pixelSize: Theme.smallFontSize
                color: Theme.textDim
                // to a hundredth of the span: 11:59:43.1 – 12:00:16.9 (33.8 s shown)
                text: panel.zoomed ? qsTr("%1 – %2 (%3 shown)").arg(timeline.timeLabel(panel.viewStart, panel.span / 100))
                                         .arg(timeline.timeLabel(panel.viewEnd, panel.span / 100)).arg(timeline.timeLabel(panel.span, panel.span / 100))
                                   : qsTr("whole archive")
            }
            MouseArea {  // the ruler: click to put the playhead, drag to scrub, hold still to play from there
                objectName: "playheadRuler"
                x: panel.labelWidth
                width: axis.stripWidth
                height: axis.height
                cursorShape: Qt.SizeHorCursor
                onPressed: (mouse) => { lanes.forceActiveFocus(); panel.scrubPress(panel.timeAt(mouse.x, width), "") }
                onPositionChanged: (mouse) => panel.scrubMove(panel.timeAt(mouse.x, width))
                onReleased: panel.scrubRelease()
            }
            Rectangle {  // the playhead's mark on the ruler
                visible: panel.playheadShown && x >= panel.labelWidth - 4 && x <= axis.width
                x: panel.labelWidth + panel.xOf(panel.playhead, axis.stripWidth) - 4
                width: 9
                height: axis.height
                radius: 2
                color: Theme.selection
                opacity: 0.6
            }
            Repeater {
                objectName: "axisTicks"
                model: axis.stripWidth > 0 ? timeline.axisTicks(panel.viewStart, panel.viewEnd, Math.max(2, Math.floor(axis.stripWidth / 110))) : []
                Item {
                    required property var modelData
                    readonly property real at: panel.xOf(modelData.t, axis.stripWidth)
                    x: panel.labelWidth + at
                    height: axis.height
                    Rectangle { y: axis.height - 4; width: 1; height: 4; color: Theme.textFaint }
                    Text {
                        text: modelData.text
                        x: Math.min(Math.max(-width / 2, -parent.at), axis.stripWidth - parent.at - width)
                        font.pixelSize: Theme.smallFontSize
                        color: Theme.textFaint
                    }
                }
            }
        }

        ListView {
            id: lanes
            objectName: "archiveLanes"
            Layout.fillWidth: true
            Layout.fillHeight: true
            clip: true
            spacing: 4
            model: timeline
            Text {  // a new file is being read: not the last one's lanes
                objectName: "archiveLoading"
                visible: timeline.loading && timeline.count === 0
                anchors.centerIn: parent
                font.pixelSize: Theme.fontSize
                color: Theme.textDim
                text: qsTr("Reading the archive… (a long recording takes a while)")
            }
            // Zoom and pan keys once a lane was clicked, before the editor's own F, Ctrl++ and Ctrl+−.
            Keys.onShortcutOverride: (event) => event.accepted = panel.viewKey(event, false)
            Keys.onPressed: (event) => event.accepted = panel.viewKey(event, true)
            delegate: Item {
                id: lane
                required property string name
                required property string summary
                required property string kind
                required property var stored
                required property var partial
                required property var gaps
                required property var ticks
                required property int channels
                required property string itemKind
                /// The samples' envelope for the view ([min, max] per pixel column), signal lanes only.
                readonly property var envelope: kind === "signal" && paint.width > 0
                                                ? (laneSignals.revision, laneSignals.envelope(name, panel.viewStart, panel.viewEnd, Math.round(paint.width))) : []
                onEnvelopeChanged: paint.requestPaint()
                width: lanes.width
                height: Math.max(kind === "signal" ? 56 : 36, caption.implicitHeight + 6)  // a signal lane tall enough to read its envelope
                Column {
                    id: caption
                    width: panel.labelWidth - 8
                    anchors.verticalCenter: parent.verticalCenter
                    Text { width: parent.width; text: lane.name; elide: Text.ElideRight; font.pixelSize: Theme.fontSize; font.weight: Font.DemiBold; color: Theme.text }
                    Text {  // wraps rather than cut off the gap count at the end
                        objectName: "laneSummary"
                        width: parent.width
                        text: lane.summary
                        wrapMode: Text.WordWrap
                        maximumLineCount: 3
                        elide: Text.ElideRight
                        font.pixelSize: Theme.smallFontSize
                        color: Theme.textDim
                    }
                }
                Rectangle {
                    id: strip
                    x: panel.labelWidth
                    width: parent.width - panel.labelWidth
                    height: parent.height
                    color: Theme.panel
                    border.color: Theme.border
                    Canvas {
                        id: paint
                        objectName: "lanePaint"
                        /// Pixel columns the last paint drew an envelope in (0: none, or not read yet).
                        property int envelopeColumns: 0
                        anchors.fill: parent
                        anchors.margins: 1
                        onWidthChanged: requestPaint()
                        Connections { target: timeline; function onLoaded() { paint.requestPaint() } }
                        Connections {
                            target: panel
                            function onViewStartChanged() { paint.requestPaint() }
                            function onViewEndChanged() { paint.requestPaint() }
                        }
                        onPaint: {
                            const ctx = getContext("2d")
                            ctx.reset()
                            const w = width, h = height
                            const fill = (spans, color, top, bottom) => {
                                ctx.fillStyle = color
                                for (const s of spans) {
                                    const a = panel.xOf(s.start, w), b = panel.xOf(s.end, w)
                                    ctx.fillRect(a, top, Math.max(1, b - a), bottom - top)
                                }
                            }
                            const env = lane.envelope
                            ctx.globalAlpha = env.length ? 0.3 : 1  // under an envelope the spans are its background
                            fill(lane.stored, String(Theme.accent), 6, h - 6)
                            fill(lane.partial, String(Theme.warning), 6, h - 6)
                            ctx.globalAlpha = 1
                            // min..max of each column, scaled to the loudest in view (a quiet stream still shows its shape)
                            let peak = 0
                            for (const v of env) if (v === v) peak = Math.max(peak, Math.abs(v))
                            const half = h / 2 - 4, scale = peak > 0 ? half / peak : 0
                            let drawn = 0
                            ctx.fillStyle = String(Theme.accent)
                            for (let c = 0; c + 1 < env.length; c += 2) {
                                const lo = env[c], hi = env[c + 1]
                                if (lo !== lo) continue  // NaN: nothing stored in this column
                                const top = h / 2 - hi * scale, bottom = h / 2 - lo * scale
                                ctx.fillRect(c / 2, top, 1, Math.max(1, bottom - top))
                                ++drawn
                            }
                            envelopeColumns = drawn
                            fill(lane.gaps, String(Theme.error), h / 2 - 2, h / 2 + 2)
                            ctx.fillStyle = String(Theme.text)
                            let last = -2
                            for (const t of lane.ticks) {
                                const x = Math.round(panel.xOf(t, w))
                                if (x === last || x < 0 || x > w) continue  // one tick per pixel column, in view
                                ctx.fillRect(x, 3, 1, h - 6)
                                last = x
                            }
                        }
                    }
                    Rectangle {  // the chosen interval, cut to the view
                        readonly property real a: Math.max(-2, panel.xOf(Math.min(panel.chosenFrom, panel.chosenTo), strip.width))
                        readonly property real b: Math.min(strip.width + 2, panel.xOf(Math.max(panel.chosenFrom, panel.chosenTo), strip.width))
                        visible: panel.chosenStream === lane.name && b >= a
                        x: a
                        width: Math.max(2, b - a)
                        height: parent.height
                        color: "#33f59e0b"
                        border.color: Theme.selection
                    }
                    Rectangle {  // the playhead
                        readonly property real at: panel.xOf(panel.playhead, strip.width)
                        visible: panel.playheadShown && at >= 0 && at <= strip.width
                        x: at
                        width: 1
                        height: parent.height
                        color: Theme.selection
                        z: 2
                    }
                    MouseArea {  // drag across the lane to choose an interval; shift or middle drag pans, the wheel zooms
                        objectName: "laneScrub"
                        anchors.fill: parent
                        acceptedButtons: Qt.LeftButton | Qt.MiddleButton
                        cursorShape: panning ? Qt.ClosedHandCursor : Qt.IBeamCursor
                        property bool panning: false
                        property real pressX: 0
                        property real pressStart: 0
                        onPressed: (mouse) => {
                            lanes.forceActiveFocus()
                            panning = mouse.button === Qt.MiddleButton || (mouse.modifiers & Qt.ShiftModifier)
                            pressX = mouse.x
                            pressStart = panel.viewStart
                            if (panning) return
                            panel.chosenStream = lane.name
                            panel.chosenKind = lane.kind
                            panel.chosenChannels = lane.channels
                            panel.chosenItemKind = lane.itemKind
                            panel.chosenFrom = panel.chosenTo = panel.timeAt(mouse.x, width)
                            panel.stopPlaying()
                            panel.setPlayhead(panel.chosenFrom, lane.kind === "signal" ? lane.name : "")
                        }
                        onPositionChanged: (mouse) => {
                            if (!panning) { panel.chosenTo = panel.timeAt(mouse.x, width); return }
                            const start = pressStart - (mouse.x - pressX) / width * panel.span
                            panel.panBy(start - panel.viewStart)
                        }
                        onReleased: panning = false
                        onWheel: (wheel) => {
                            const dx = wheel.angleDelta.x, dy = wheel.angleDelta.y
                            if (dx !== 0 || (wheel.modifiers & Qt.ShiftModifier)) {  // sideways: pan a tenth of the view a notch
                                panel.panBy(-(dx !== 0 ? dx : dy) / 120 * panel.span / 10)
                            } else if (dy !== 0) {  // zoom around the pointer
                                panel.zoomAround(panel.viewStart + wheel.x / width * panel.span, Math.pow(0.7, dy / 120))
                            }
                        }
                    }
                    MouseArea {  // the playhead's line in a lane: drag it to scrub, hold it still to play from there
                        objectName: "playheadGrab"
                        readonly property real at: panel.xOf(panel.playhead, strip.width)
                        visible: panel.playheadShown && at >= 0 && at <= strip.width
                        x: at - width / 2
                        width: 9
                        height: parent.height
                        cursorShape: Qt.SizeHorCursor
                        onPressed: { lanes.forceActiveFocus(); panel.scrubPress(panel.playhead, lane.kind === "signal" ? lane.name : "") }
                        onPositionChanged: (mouse) => panel.scrubMove(panel.timeAt(mapToItem(strip, mouse.x, 0).x, strip.width))
                        onReleased: panel.scrubRelease()
                    }
                }
            }
        }

        RowLayout {  // the playhead's time, and what play-back said
            visible: timeline.count > 0
            spacing: 8
            Layout.fillWidth: true
            Text {
                objectName: "playheadTime"
                font.pixelSize: Theme.smallFontSize
                color: Theme.textDim
                text: panel.playheadShown ? panel.playheadText()
                                          : qsTr("Click the ruler or a lane to put the playhead; drag it to scrub, Space plays from it")
            }
            Text {
                objectName: "playMessage"
                Layout.fillWidth: true
                elide: Text.ElideRight
                visible: panel.playMessage.length > 0
                font.pixelSize: Theme.smallFontSize
                color: Theme.warning
                text: qsTr("Cannot play: %1").arg(panel.playMessage)
            }
            Button {
                objectName: "playheadPlayButton"
                text: laneSignals.playing ? qsTr("Stop") : qsTr("Play")
                enabled: timeline.count > 0
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Play from the playhead (Space once a lane was clicked)")
                onClicked: panel.togglePlay()
            }
        }

        RowLayout {  // the chosen interval and what to do with it
            visible: timeline.count > 0
            spacing: 8
            Layout.fillWidth: true
            Text {
                objectName: "chosenInterval"
                Layout.fillWidth: true
                font.pixelSize: Theme.smallFontSize
                color: Theme.textDim
                text: panel.chosenStream.length
                      ? qsTr("%1: %2 s to %3 s (%4 s; Z shows it)").arg(panel.chosenStream).arg(panel.intervalFrom.toFixed(3)).arg(panel.intervalTo.toFixed(3)).arg((panel.intervalTo - panel.intervalFrom).toFixed(3))
                      : qsTr("Drag across a lane to choose an interval")
            }
            Button {
                objectName: "showPastButton"
                visible: panel.chosenKind === "events"
                text: qsTr("Show in Localization tab")
                enabled: panel.canShowPast
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Shows this interval's localization events (azimuth, elevation) as past events in the Localization tab (Ctrl+Shift+L)")
                onClicked: panel.showChosenInLocalization()
            }
            Button {
                objectName: "replayButton"
                text: qsTr("Replay this interval through the graph")
                enabled: panel.canReplay
                ToolTip.visible: hovered
                ToolTip.text: qsTr("Adds an io.archive_source for this interval; for a stream recorded from a wire, it takes over that wire (Ctrl+Shift+P)")
                onClicked: panel.replayChosen()
            }
        }

        RowLayout {  // legend
            visible: timeline.count > 0
            spacing: 12
            Repeater {
                model: [{color: Theme.accent, text: qsTr("stored")}, {color: Theme.warning, text: qsTr("some channels only")},
                        {color: Theme.error, text: qsTr("gap")}, {color: Theme.text, text: qsTr("event")}]
                RowLayout {
                    required property var modelData
                    spacing: 4
                    Rectangle { width: 12; height: 8; color: modelData.color }
                    Text { text: modelData.text; font.pixelSize: Theme.smallFontSize; color: Theme.textDim }
                }
            }
        }
    }

    FilePicker {
        id: archiveDialog
        title: qsTr("Open archive")
        mode: "open"
        recent: panel.recent
        filters: [{label: qsTr("Archives (*.sqlite)"), patterns: ["*.sqlite"]}, {label: qsTr("All files"), patterns: []}]
        onFileChosen: (path) => timeline.open(path)
    }
}
