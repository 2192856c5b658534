// The archive timeline strip: an archive file's streams, one lane each on a shared time axis (seconds
// from sample 0, as io.archive_source and isochron-archive count), with what is stored, what only some
// channels hold, the gaps, and stored events as ticks; the lanes follow what a recorder adds by
// themselves (Reload reads at once). Drag across a lane to choose an interval, then replay it through
// the graph (an io.archive_source), or show an event lane's localization events in the Localization tab.
// The strip zooms around the pointer (wheel, or + and − once clicked) and pans (shift or middle drag,
// horizontal scroll, arrow keys); F or Fit shows the whole file again.
// C++: ArchiveTimelineModel (ui/archive).
import QtQuick
import QtQuick.Controls
import QtQuick.Layouts
import Isochron.Ui

Rectangle {
    id: panel
    property GraphDocument document
    property RecentFiles recent
    readonly property alias timeline: timeline
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
        function onPathChanged() { panel.zoomed = false; panel.chosenStream = "" }
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
        case Qt.Key_Left: action = () => panBy(-span / 4); break
        case Qt.Key_Right: action = () => panBy(span / 4); break
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
                width: lanes.width
                height: Math.max(36, caption.implicitHeight + 6)
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
                            fill(lane.stored, String(Theme.accent), 6, h - 6)
                            fill(lane.partial, String(Theme.warning), 6, h - 6)
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
                }
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
