// The canvas: pan and zoom (wheel, middle drag, keys), rubber-band selection, wiring by dragging
// between ports with the engine's verdict shown at the pointer, drops from the palette, quick-add
// by double-click, live values on wires, and the minimap.
import QtQuick
import QtQuick.Controls
import Isochron.Ui

FocusScope {
    id: canvas
    property GraphDocument document
    /// The run controller, for probes on wires (may be null).
    property var run: null
    /// Where the probe cards are (shared with the Probes tab).
    property ProbeLayout probeLayout: null
    property real zoom: 1
    property real panX: 40
    property real panY: 60
    property bool snapToGrid: true
    property bool showMinimap: true
    property bool showLiveValues: true
    /// The run has ended: wire labels and skew pills show its final values, dimmed.
    readonly property bool liveValuesFinal: run !== null && !run.running
    readonly property alias world: world
    readonly property real minZoom: 0.15
    readonly property real maxZoom: 3

    signal nodeActivated(string nodeId)
    signal quickAddRequested(real screenX, real screenY, real canvasX, real canvasY)

    clip: true
    activeFocusOnTab: true

    // ---- coordinates ----
    function toCanvas(sx, sy) { return Qt.point((sx - panX) / zoom, (sy - panY) / zoom) }
    function toScreen(cx, cy) { return Qt.point(cx * zoom + panX, cy * zoom + panY) }
    function zoomAt(sx, sy, newZoom) {
        newZoom = Math.max(minZoom, Math.min(maxZoom, newZoom))
        panX = sx - (sx - panX) * newZoom / zoom
        panY = sy - (sy - panY) * newZoom / zoom
        zoom = newZoom
    }
    function zoomBy(factor) { zoomAt(width / 2, height / 2, zoom * factor) }
    function animateView(x, y, z) {
        viewAnimation.stop()
        panAnimationX.to = x; panAnimationY.to = y; zoomAnimation.to = z
        viewAnimation.start()
    }
    /// Show every node (or the selection when `selectionOnly`), zoomed out as far as it takes.
    function fitToView(selectionOnly) {
        const box = document.nodes.bounds(selectionOnly ? document.selection.nodes : [])
        if (box.width <= 0) { animateView(40, 60, 1); return }
        const margin = 60
        const z = Math.max(minZoom, Math.min(1.25, Math.min((width - 2 * margin) / box.width, (height - 2 * margin) / box.height)))
        animateView(width / 2 - (box.x + box.width / 2) * z, height / 2 - (box.y + box.height / 2) * z, z)
    }
    /// The view is about to move or moving (a fit, a centring).
    readonly property bool moving: viewAnimation.running || fitTimer.running
    /// Zoom below which node titles (12 px at 100 %) get hard to read.
    readonly property real readableZoom: 0.8
    /// Fit the graph, but not below readableZoom: a larger graph shows its top-left part (its
    /// sources, after auto-layout), the rest a pan away.
    function fitReadable() {
        const box = document.nodes.bounds([])
        if (box.width <= 0) { animateView(40, 60, 1); return }
        const margin = 60
        const fit = Math.min((width - 2 * margin) / box.width, (height - 2 * margin) / box.height)
        const z = Math.max(readableZoom, Math.min(1.25, fit))
        const x = box.width * z <= width - 2 * margin ? width / 2 - (box.x + box.width / 2) * z : margin - box.x * z
        const y = box.height * z <= height - 2 * margin ? height / 2 - (box.y + box.height / 2) * z : margin - box.y * z
        animateView(x, y, z)
    }
    /// Fit once the canvas has its size (after opening a file or laying out).
    function requestFit() { fitTimer.restart() }
    /// The view is about to move (a fit is pending or animating): new probe cards wait for it.
    readonly property bool settling: fitTimer.running || viewAnimation.running
    Timer {
        id: fitTimer
        interval: 60
        onTriggered: {
            if (canvas.width > 0 && canvas.height > 0) canvas.fitReadable()
            else restart()
        }
    }
    /// Say on UiLog where node `nodeId` and its ports are on the screen (tests drive the mouse by it).
    function logNode(nodeId) {
        const node = document.nodes.get(nodeId)
        if (node.nodeId === undefined) return
        const at = (cx, cy) => { const s = toScreen(cx, cy); const g = mapToGlobal(s.x, s.y); return Math.round(g.x) + "," + Math.round(g.y) }
        const ports = node.inputs.map(p => "in " + p.name + "@" + at(node.posX, node.posY + p.offsetY))
                      .concat(node.outputs.map(p => "out " + p.name + "@" + at(node.posX + node.boxWidth, node.posY + p.offsetY)))
        UiLog.info("node " + nodeId + " at " + at(node.posX, node.posY) + " title@" + at(node.posX + node.boxWidth / 2, node.posY + 15) + " ports " + ports.join(" "))
    }
    function centerOn(nodeId) {
        const box = document.nodes.bounds([nodeId])
        if (box.width <= 0) return
        animateView(width / 2 - (box.x + box.width / 2) * zoom, height / 2 - (box.y + box.height / 2) * zoom, zoom)
    }
    /// A point in canvas units in the middle of the view, snapped to the grid.
    function viewCentre() {
        const p = toCanvas(width / 2, height / 2)
        return Qt.point(Math.round(p.x / Theme.gridStep) * Theme.gridStep, Math.round(p.y / Theme.gridStep) * Theme.gridStep)
    }
    function snapped(v) { return snapToGrid ? Math.round(v / Theme.gridStep) * Theme.gridStep : v }
    /// Top-left (screen) of a w × h place in the view that covers no node (nor the rates beside
    /// them), no floating card and not the minimap, for a new probe card: the bottom rows first,
    /// then upwards. Null when there is none (the card docks instead).
    function freeSpot(w, h) {
        const m = 12
        for (let top = height - h - m; top >= m; top -= 40) {
            for (let left = m; left + w <= width - m; left += 40) {
                const a = toCanvas(left - 24, top - 24)  // 24 px around: the rates on wires by the nodes
                if (document.nodes.nodesIn(a.x, a.y, (w + 48) / zoom, (h + 48) / zoom).length > 0) continue
                const overCard = (run ? run.probes : []).some(p => {
                    const s = probeLayout.stateOf(p.key)
                    return !s.docked && s.x >= 0 && left < s.x + w && s.x < left + w && top < s.y + h && s.y < top + h
                })
                if (overCard) continue
                if (showMinimap && left + w > width - 192 && top + h > height - 128) continue
                return Qt.point(left, top)
            }
        }
        return null
    }
    /// A new probe's card found no free room on the canvas and went to the Probes tab.
    signal probeDocked(string key)

    ParallelAnimation {
        id: viewAnimation
        NumberAnimation { id: panAnimationX; target: canvas; property: "panX"; duration: 220; easing.type: Easing.OutCubic }
        NumberAnimation { id: panAnimationY; target: canvas; property: "panY"; duration: 220; easing.type: Easing.OutCubic }
        NumberAnimation { id: zoomAnimation; target: canvas; property: "zoom"; duration: 220; easing.type: Easing.OutCubic }
    }

    // ---- wiring ----
    property var wireStart: null      // {nodeId, port, output, x, y, rerouteKey}
    property string hoverVerdict: ""  // why the wire under the pointer would be refused
    property string hoverKey: ""
    /// Wire the output `from` into a node that was just added for it (drop on empty canvas, quick-add).
    property var pendingWire: null

    function beginWire(nodeId, port, output, x, y) {
        forceActiveFocus()
        if (!output) {
            const feeding = document.edges.wireInto(nodeId, port)
            if (feeding.key !== undefined) {
                wireStart = {nodeId: feeding.fromNode, port: feeding.fromPort, output: true,
                             x: feeding.fromX, y: feeding.fromY, rerouteKey: feeding.key}
                wires.dragColor = feeding.color
                dragWire(x, y)
                return
            }
        }
        const at = document.nodes.portAt(x, y, 14)
        wireStart = {nodeId: nodeId, port: port, output: output, x: at.x !== undefined ? at.x : x,
                     y: at.y !== undefined ? at.y : y, rerouteKey: ""}
        wires.dragColor = at.color !== undefined ? at.color : Theme.textDim
        dragWire(x, y)
    }
    function targetOf(x, y) { return document.nodes.portAt(x, y, Math.max(12, 12 / zoom)) }
    function verdictFor(target) {
        if (!wireStart || target.nodeId === undefined) return ""
        if (target.port === undefined) {
            if (!wireStart.output) return ""
            return document.firstAcceptingInput(wireStart.nodeId, wireStart.port, target.nodeId).length
                    ? "" : qsTr("no free input of '%1' accepts this wire").arg(target.nodeId)
        }
        if (target.output === wireStart.output) return qsTr("wires go from an output to an input")
        const from = wireStart.output ? wireStart : {nodeId: target.nodeId, port: target.port}
        const to = wireStart.output ? target : wireStart
        if (wireStart.rerouteKey.length && to.nodeId + "." + to.port === wireStart.rerouteKey.split(">")[1]) return ""
        return document.wireRefusal(from.nodeId, from.port, to.nodeId, to.port)
    }
    function dragWire(x, y) {
        if (!wireStart) return
        const target = targetOf(x, y)
        const snapPoint = target.port !== undefined && target.output !== wireStart.output
        const end = snapPoint ? Qt.point(target.x, target.y) : Qt.point(x, y)
        if (wireStart.output) { wires.dragFrom = Qt.point(wireStart.x, wireStart.y); wires.dragTo = end }
        else { wires.dragFrom = end; wires.dragTo = Qt.point(wireStart.x, wireStart.y) }
        wires.dragActive = true
        const key = target.nodeId === undefined ? "" : target.nodeId + "." + (target.port || "")
        if (key !== hoverKey) {
            hoverKey = key
            hoverVerdict = verdictFor(target)
        }
        verdictLabel.place(toScreen(x, y))
    }
    function finishWire(x, y) {
        if (!wireStart) return
        const start = wireStart
        wireStart = null
        wires.dragActive = false
        hoverKey = ""
        hoverVerdict = ""
        const target = targetOf(x, y)
        let reason = ""
        if (target.nodeId === undefined) {
            if (start.rerouteKey.length) document.removeWire(start.rerouteKey)
            else if (start.output) {
                pendingWire = start
                const s = toScreen(x, y)
                quickAddRequested(s.x, s.y, x, y)
            }
            return
        }
        if (target.port === undefined) {
            if (!start.output || target.nodeId === start.nodeId) return
            const input = document.firstAcceptingInput(start.nodeId, start.port, target.nodeId)
            if (!input.length) reason = qsTr("no free input of '%1' accepts %2.%3").arg(target.nodeId).arg(start.nodeId).arg(start.port)
            else if (start.rerouteKey.length) reason = document.rerouteWire(start.rerouteKey, target.nodeId, input)
            else reason = document.connectPorts(start.nodeId, start.port, target.nodeId, input)
        } else if (target.output === start.output) {
            return
        } else if (start.rerouteKey.length) {
            if (start.rerouteKey.split(">")[1] !== target.nodeId + "." + target.port)
                reason = document.rerouteWire(start.rerouteKey, target.nodeId, target.port)
        } else if (start.output) {
            reason = document.connectPorts(start.nodeId, start.port, target.nodeId, target.port)
        } else {
            reason = document.connectPorts(target.nodeId, target.port, start.nodeId, start.port)
        }
        if (reason.length) toast.show(reason, toScreen(x, y))
        else UiLog.info("wired: " + document.edges.rowCount() + " wires")
    }
    /// After quick-add placed `nodeId` for a wire dropped on empty canvas, connect it.
    function completePendingWire(nodeId) {
        if (!pendingWire) return
        const start = pendingWire
        pendingWire = null
        if (!nodeId.length) return
        const input = document.firstAcceptingInput(start.nodeId, start.port, nodeId)
        if (input.length) document.connectPorts(start.nodeId, start.port, nodeId, input)
        else toast.show(qsTr("no input of '%1' accepts %2.%3").arg(nodeId).arg(start.nodeId).arg(start.port), toScreen(document.nodes.get(nodeId).posX, document.nodes.get(nodeId).posY))
    }
    /// Record the output wire `key` comes from into the graph's archive, or stop recording it; a
    /// refusal shows at `point` (screen units).
    function toggleRecording(key, point) {
        const recorder = document.recorderOf(key)
        if (recorder.length) {
            document.stopRecordingWire(key)
            UiLog.info("recording stopped: " + key)
            return
        }
        const id = document.recordWire(key)
        if (id.length) UiLog.info("recording: " + key + " by " + id)
        else toast.show(document.lastError, point)
    }
    function openNodeMenu(nodeId, point) {
        nodeMenu.nodeId = nodeId
        nodeMenu.popup(point.x, point.y)
    }

    // ---- background ----
    Rectangle { anchors.fill: parent; color: Theme.canvas }
    CanvasGrid {
        anchors.fill: parent
        originX: canvas.panX
        originY: canvas.panY
        zoom: canvas.zoom
        step: Theme.gridStep
        minorColor: Theme.gridMinor
        majorColor: Theme.gridMajor
    }

    MouseArea {  // empty canvas: select, rubber band, pan, zoom, quick-add
        id: background
        anchors.fill: parent
        acceptedButtons: Qt.LeftButton | Qt.MiddleButton | Qt.RightButton
        property point pressAt
        property real startPanX
        property real startPanY
        property bool panning: false
        property bool banding: false
        onPressed: (mouse) => {
            canvas.forceActiveFocus()
            pressAt = Qt.point(mouse.x, mouse.y)
            startPanX = canvas.panX
            startPanY = canvas.panY
            panning = mouse.button === Qt.MiddleButton || mouse.button === Qt.RightButton
                      || (mouse.modifiers & Qt.AltModifier) || spaceHeld
            banding = !panning
        }
        onPositionChanged: (mouse) => {
            if (panning) {
                canvas.panX = startPanX + mouse.x - pressAt.x
                canvas.panY = startPanY + mouse.y - pressAt.y
            } else if (banding) {
                band.x = Math.min(pressAt.x, mouse.x); band.y = Math.min(pressAt.y, mouse.y)
                band.width = Math.abs(mouse.x - pressAt.x); band.height = Math.abs(mouse.y - pressAt.y)
                band.visible = band.width > 3 || band.height > 3
            }
        }
        onReleased: (mouse) => {
            const additive = (mouse.modifiers & (Qt.ShiftModifier | Qt.ControlModifier)) !== 0
            if (band.visible) {
                const a = canvas.toCanvas(band.x, band.y)
                canvas.document.selection.selectNodes(canvas.document.nodes.nodesIn(a.x, a.y, band.width / canvas.zoom, band.height / canvas.zoom), additive)
            } else if (banding) {
                const p = canvas.toCanvas(mouse.x, mouse.y)
                const key = canvas.document.edges.wireAt(p.x, p.y, 6 / canvas.zoom)
                if (key.length) canvas.document.selection.selectWire(key, additive)
                else if (!additive) canvas.document.selection.clear()
            } else if (mouse.button === Qt.RightButton && Math.abs(mouse.x - pressAt.x) + Math.abs(mouse.y - pressAt.y) < 4) {
                const p = canvas.toCanvas(mouse.x, mouse.y)
                const key = canvas.document.edges.wireAt(p.x, p.y, 6 / canvas.zoom)
                if (key.length) {
                    canvas.document.selection.selectWire(key)
                    wireMenu.wireKey = key
                    wireMenu.at = Qt.point(mouse.x, mouse.y)
                    wireMenu.popup(mouse.x, mouse.y)
                } else {
                    canvasMenu.at = Qt.point(mouse.x, mouse.y)
                    canvasMenu.popup(mouse.x, mouse.y)
                }
            }
            band.visible = false
            panning = banding = false
        }
        onDoubleClicked: (mouse) => {
            // Two quick right-clicks (wire menu, then again) are not a request to add an operator.
            if (mouse.button !== Qt.LeftButton) return
            const p = canvas.toCanvas(mouse.x, mouse.y)
            canvas.quickAddRequested(mouse.x, mouse.y, p.x, p.y)
        }
        onWheel: (wheel) => {
            if (wheel.modifiers & Qt.ControlModifier || wheel.pixelDelta.y === 0) {
                canvas.zoomAt(wheel.x, wheel.y, canvas.zoom * Math.pow(1.0015, wheel.angleDelta.y))
            } else {
                canvas.panX += wheel.pixelDelta.x
                canvas.panY += wheel.pixelDelta.y
            }
        }
    }
    PinchHandler {
        target: null
        property real startZoom: 1
        onActiveChanged: if (active) startZoom = canvas.zoom
        onActiveScaleChanged: canvas.zoomAt(centroid.position.x, centroid.position.y, startZoom * activeScale)
    }
    property bool spaceHeld: false

    // ---- the world: nodes and wires in canvas units ----
    Item {
        id: world
        x: canvas.panX
        y: canvas.panY
        scale: canvas.zoom
        transformOrigin: Item.TopLeft

        Repeater {  // notes, under the wires and nodes
            model: canvas.document.notes
            delegate: NoteView { host: canvas }
        }
        WireLayer {
            id: wires
            edges: canvas.document.edges
            pixelSize: 1 / canvas.zoom
            selectionColor: Theme.selection
        }
        ViewportFilter {  // the nodes near the view: only they get items (a graph of 1 000 nodes opens with dozens)
            id: nodesInView
            objectName: "nodesInView"
            sourceModel: canvas.document.nodes
            view: Qt.rect(-canvas.panX / canvas.zoom, -canvas.panY / canvas.zoom, canvas.width / canvas.zoom, canvas.height / canvas.zoom)
        }
        Repeater {
            model: nodesInView
            delegate: NodeView { host: canvas }
        }
        Connections { target: canvas.document.edges; function onLiveTextsChanged() { liveLabels.liveTextRevision++ } }
        FontMetrics { id: liveMetrics; font.pixelSize: 9; font.family: Theme.monoFont }
        Repeater {  // live values on wires, placed clear of the nodes (EdgeListModel.liveLabelPlaces)
            id: liveLabels
            readonly property real labelHeight: 15
            readonly property var places: {
                canvas.document.revision
                liveTextRevision
                if (!canvas.showLiveValues) return []
                return canvas.document.edges.liveLabelPlaces(liveMetrics.averageCharacterWidth / canvas.zoom, 10 / canvas.zoom, labelHeight / canvas.zoom)
            }
            property int liveTextRevision: 0
            model: canvas.showLiveValues ? canvas.document.edges : null
            delegate: Item {  // a pill, constant size on screen, made only near the view
                id: liveLabelItem
                required property string liveText
                required property int index
                readonly property var place: liveLabels.places[index] || ({})
                readonly property rect area: nodesInView.area
                readonly property real reach: 400 / canvas.zoom  // wider than any pill, in canvas units
                visible: liveText.length > 0 && place.x !== undefined
                         && place.x < area.x + area.width && place.x + reach > area.x && place.y < area.y + area.height && place.y + reach > area.y
                x: place.x !== undefined ? place.x : 0
                y: place.y !== undefined ? place.y : 0
                scale: 1 / canvas.zoom
                transformOrigin: Item.TopLeft
                Loader {
                    active: liveLabelItem.visible
                    sourceComponent: liveLabelPill
                }
                Component {
                    id: liveLabelPill
                    Rectangle {
                        objectName: "liveLabel"
                        width: liveLabel.implicitWidth + 10
                        height: liveLabels.labelHeight
                        radius: height / 2
                        color: Theme.panel
                        opacity: canvas.liveValuesFinal ? 0.6 : 0.92  // dimmed: the last run's final values
                        border.color: Theme.border
                        Text {
                            id: liveLabel
                            anchors.centerIn: parent
                            text: liveLabelItem.liveText
                            font.pixelSize: 9
                            font.family: Theme.monoFont
                            font.italic: canvas.liveValuesFinal
                            color: Theme.textDim
                        }
                        MouseArea {
                            id: liveLabelHover
                            anchors.fill: parent
                            hoverEnabled: true
                            acceptedButtons: Qt.NoButton
                        }
                        ToolTip.visible: liveLabelHover.containsMouse
                        ToolTip.delay: 500
                        ToolTip.text: (canvas.liveValuesFinal ? qsTr("Final values of the last run (cleared by the next run or an edit).") + "\n" : "")
                                      + qsTr("rate: items (or samples, S) per second on this wire.") + "\n"
                                      + qsTr("wm: watermark lag, how far this stream's progress trails the most advanced source.") + "\n"
                                      + qsTr("late: items that arrived behind the stream's watermark.")
                    }
                }
            }
        }
    }

    Rectangle {
        id: band
        visible: false
        color: Qt.rgba(0.23, 0.51, 0.96, 0.12)
        border.color: Theme.accent
        border.width: 1
    }

    DropArea {  // operators dragged from the palette
        anchors.fill: parent
        keys: ["isochron/operator"]
        onDropped: (drop) => {
            const p = canvas.toCanvas(drop.x, drop.y)
            const spot = canvas.document.freeSpot(drop.source.typeName, canvas.snapped(p.x - 92), canvas.snapped(p.y - 15))
            canvas.document.addNode(drop.source.typeName, spot.x, spot.y)
            canvas.forceActiveFocus()
        }
    }

    Rectangle {  // the verdict on the wire being dragged
        id: verdictLabel
        function place(p) { x = p.x + 16; y = p.y + 12 }
        visible: canvas.wireStart !== null && canvas.hoverKey.length > 0
        width: verdictText.implicitWidth + 16
        height: verdictText.implicitHeight + 8
        radius: 4
        color: canvas.hoverVerdict.length ? Theme.error : Theme.success
        Text {
            id: verdictText
            anchors.centerIn: parent
            text: canvas.hoverVerdict.length ? canvas.hoverVerdict : qsTr("connect")
            color: "white"
            font.pixelSize: Theme.smallFontSize
        }
    }

    Toast { id: toast; z: 20 }

    Rectangle {  // what the nodes warned about as the run started (a recording standing in for a device),
                 // or, not as a warning, what the ranks said as a Stop ended an mpirun job
        id: noticeBar
        objectName: "noticeBar"
        property bool dismissed: false
        readonly property bool warns: canvas.run === null || canvas.run.noticesWarn
        Connections { target: canvas.run; function onNoticesChanged() { noticeBar.dismissed = false } }
        visible: canvas.run !== null && canvas.run.notices.length > 0 && !dismissed
        z: 15
        anchors.top: parent.top
        anchors.topMargin: 10
        anchors.horizontalCenter: parent.horizontalCenter
        width: Math.min(parent.width - 24, noticeText.implicitWidth + 72)
        height: noticeText.implicitHeight + 16
        radius: 6
        color: warns ? (Theme.dark ? "#4a3a12" : "#fef3c7") : Theme.accentSoft
        border.color: warns ? Theme.warning : Theme.accent
        Icon { id: noticeIcon; objectName: "noticeIcon"; name: noticeBar.warns ? "warning" : "stop"; size: 16; color: noticeBar.warns ? Theme.warning : Theme.accent; x: 10; y: 8 }
        Text {
            id: noticeText
            objectName: "noticeText"
            x: 34; y: 8
            width: Math.min(implicitWidth, noticeBar.parent.width - 24 - 72)
            text: canvas.run ? canvas.run.notices.join("\n") : ""
            wrapMode: Text.WordWrap
            font.pixelSize: Theme.smallFontSize + 1
            color: Theme.text
        }
        IconButton {
            anchors.right: parent.right; anchors.rightMargin: 4
            anchors.verticalCenter: parent.verticalCenter
            implicitWidth: 26; implicitHeight: 24
            iconName: "close"
            tip: qsTr("Dismiss")
            onClicked: noticeBar.dismissed = true
        }
    }

    Rectangle {  // the partitions in use, their colours and the mpirun that runs them (docs/scale-out.md)
        id: partitionLegend
        objectName: "partitionLegend"
        readonly property var partitions: canvas.document.partitions
        visible: partitions.length > 0
        z: 5
        anchors.left: parent.left
        anchors.bottom: parent.bottom
        anchors.margins: 12
        width: legendColumn.implicitWidth + 20
        height: legendColumn.implicitHeight + 14
        radius: 6
        color: Theme.panel
        border.color: Theme.border
        opacity: 0.94
        Column {
            id: legendColumn
            x: 10; y: 7
            spacing: 3
            Text {
                objectName: "partitionLegendTitle"
                readonly property var last: partitionLegend.partitions.length ? partitionLegend.partitions[partitionLegend.partitions.length - 1] : null
                text: last ? qsTr("Partitions: mpirun -np %1").arg(last.partition + 1) : ""
                font.pixelSize: Theme.smallFontSize
                font.bold: true
                color: Theme.text
            }
            Repeater {
                model: partitionLegend.partitions
                delegate: Row {
                    required property var modelData
                    spacing: 6
                    Rectangle { width: 10; height: 10; radius: 2; y: 2; color: Theme.partitionColor(modelData.partition) }
                    Text {
                        objectName: "partitionLegendRow"
                        text: modelData.nodes === 1 ? qsTr("rank %1: 1 node").arg(modelData.partition)
                                                    : qsTr("rank %1: %2 nodes").arg(modelData.partition).arg(modelData.nodes)
                        font.pixelSize: Theme.smallFontSize
                        color: Theme.textDim
                    }
                }
            }
            Text {
                text: qsTr("Alt+0…9 sets the selection's rank, Alt+− clears it")
                font.pixelSize: Theme.smallFontSize - 1
                color: Theme.textFaint
            }
        }
    }

    Minimap {  // only while part of the graph is out of view; faint over nodes until pointed at
        id: minimap
        objectName: "minimap"
        readonly property var graphBox: { canvas.document.revision; return canvas.document.nodes.bounds([]) }
        readonly property bool graphInView: {
            const a = canvas.toScreen(graphBox.x, graphBox.y), b = canvas.toScreen(graphBox.x + graphBox.width, graphBox.y + graphBox.height)
            return a.x >= 0 && a.y >= 0 && b.x <= canvas.width && b.y <= canvas.height
        }
        readonly property bool coversNodes: {
            canvas.document.revision
            const a = canvas.toCanvas(x, y)
            return visible && canvas.document.nodes.nodesIn(a.x, a.y, width / canvas.zoom, height / canvas.zoom).length > 0
        }
        visible: canvas.showMinimap && canvas.document.nodeCount > 0 && !graphInView
        opacity: minimapHover.hovered || !coversNodes ? 0.92 : 0.3
        anchors.right: parent.right
        anchors.bottom: parent.bottom
        anchors.margins: 12
        canvas: canvas
        HoverHandler { id: minimapHover }
    }

    Rectangle {  // empty-canvas hint
        visible: canvas.document.nodeCount === 0
        anchors.centerIn: parent
        width: hint.implicitWidth + 40
        height: hint.implicitHeight + 28
        radius: 10
        color: Theme.panel
        border.color: Theme.border
        Text {
            id: hint
            anchors.centerIn: parent
            horizontalAlignment: Text.AlignHCenter
            text: qsTr("Drag an operator from the palette, or double-click to add one.\nOpen a sample from File ▸ Samples.")
            color: Theme.textDim
            font.pixelSize: Theme.fontSize + 1
        }
    }

    AppMenu {
        id: canvasMenu
        title: "canvas"
        property point at
        MenuItem {
            text: qsTr("Add operator…")
            onTriggered: {
                const p = canvas.toCanvas(canvasMenu.at.x, canvasMenu.at.y)
                canvas.quickAddRequested(canvasMenu.at.x, canvasMenu.at.y, p.x, p.y)
            }
        }
        MenuItem {
            text: qsTr("Add note")
            onTriggered: {
                const p = canvas.toCanvas(canvasMenu.at.x, canvasMenu.at.y)
                canvas.document.addNote(canvas.snapped(p.x), canvas.snapped(p.y), "")
            }
        }
        MenuItem {
            text: qsTr("Paste")
            onTriggered: {
                const p = canvas.toCanvas(canvasMenu.at.x, canvasMenu.at.y)
                canvas.document.paste(Clipboard.text(), canvas.snapped(p.x), canvas.snapped(p.y))
            }
        }
        MenuSeparator {}
        MenuItem { text: qsTr("Fit to view"); onTriggered: canvas.fitToView(false) }
        MenuItem { text: qsTr("Auto-layout"); onTriggered: canvas.document.autoLayout() }
    }

    AppMenu {
        id: wireMenu
        objectName: "wireMenu"
        title: "wire"
        property string wireKey
        property point at
        property var kinds: []
        property string recorder  // the node recording the wire's output, or ""
        onAboutToShow: {
            kinds = canvas.run ? canvas.run.probeKindsFor(wireKey) : []
            recorder = canvas.document.recorderOf(wireKey)
        }
        function probe(kind) {
            const why = canvas.run ? canvas.run.addProbe(wireKey, kind) : qsTr("probes need a run controller")
            if (why.length) toast.show(why, at)
        }
        Instantiator {  // one item per probe kind that can show this wire
            model: wireMenu.kinds.filter(k => k.fits)
            delegate: MenuItem {
                required property var modelData
                text: qsTr("Probe: %1").arg(modelData.label.toLowerCase())
                onTriggered: wireMenu.probe(modelData.name)
            }
            onObjectAdded: (index, object) => wireMenu.insertItem(index, object)
            onObjectRemoved: (index, object) => wireMenu.removeItem(object)
        }
        MenuItem {
            visible: wireMenu.kinds.length > 0 && wireMenu.kinds.every(k => !k.fits)
            height: visible ? implicitHeight : 0
            enabled: false
            text: qsTr("No probe shows this wire")
        }
        MenuSeparator {}
        MenuItem {  // an io.archive_sink fed by the wire's output, or removing it again (Ctrl+R)
            objectName: "recordWireItem"
            text: wireMenu.recorder.length ? qsTr("Stop recording this wire (Ctrl+R)") : qsTr("Record this wire (Ctrl+R)")
            onTriggered: canvas.toggleRecording(wireMenu.wireKey, wireMenu.at)
        }
        MenuItem { text: qsTr("Delete wire"); onTriggered: canvas.document.removeWire(wireMenu.wireKey) }
    }

    Repeater {  // floating probe cards (ProbeDock shows the docked ones)
        model: canvas.run && canvas.probeLayout ? canvas.run.probes : []
        delegate: ProbeCard {
            required property var modelData
            readonly property var place: canvas.probeLayout.stateOf(modelData.key)
            probe: modelData
            run: canvas.run
            visible: !place.docked
            collapsed: place.collapsed
            x: Math.max(0, Math.min(canvas.width - width, place.x))
            y: Math.max(0, Math.min(canvas.height - collapsedHeight, place.y))
            // A new card goes where it covers no node once the canvas has its size, else to the dock.
            function placeOnce() {
                if (place.x >= 0 || place.docked || canvas.settling || canvas.width < 100 || canvas.height < 100) return
                const spot = canvas.freeSpot(width, height)
                if (spot) {
                    canvas.probeLayout.set(modelData.key, {x: spot.x, y: spot.y})
                } else {
                    canvas.probeLayout.set(modelData.key, {docked: true})
                    canvas.probeDocked(modelData.key)
                }
            }
            Component.onCompleted: placeOnce()
            Connections {
                target: canvas
                function onWidthChanged() { placeOnce() }
                function onHeightChanged() { placeOnce() }
                function onSettlingChanged() { placeOnce() }
            }
            onDragged: (x, y) => canvas.probeLayout.set(modelData.key, {x: x, y: y})
            onDockToggled: canvas.probeLayout.set(modelData.key, {docked: true})
            onCollapseToggled: canvas.probeLayout.set(modelData.key, {collapsed: !place.collapsed})
        }
    }

    AppMenu {
        id: nodeMenu
        title: "node"
        property string nodeId
        MenuItem { text: qsTr("Copy"); onTriggered: { canvas.document.selection.selectNode(nodeMenu.nodeId, canvas.document.selection.hasNode(nodeMenu.nodeId)); Clipboard.setText(canvas.document.copySelection()) } }
        MenuItem { text: qsTr("Duplicate"); onTriggered: canvas.document.duplicateSelection() }
        MenuItem { text: qsTr("Lay out selection"); onTriggered: canvas.document.autoLayout() }
        MenuItem {
            readonly property bool subgraph: nodeMenu.visible && canvas.document.subgraphFileOf(nodeMenu.nodeId).length > 0
            visible: subgraph; height: subgraph ? implicitHeight : 0
            text: qsTr("Open subgraph"); onTriggered: canvas.nodeActivated(nodeMenu.nodeId)
        }
        MenuItem {
            readonly property bool subgraph: nodeMenu.visible && canvas.document.subgraphFileOf(nodeMenu.nodeId).length > 0
            visible: subgraph; height: subgraph ? implicitHeight : 0
            text: qsTr("Ungroup"); onTriggered: canvas.document.ungroup(nodeMenu.nodeId)
        }
        MenuSeparator {}
        AppMenu {
            id: partitionMenu
            objectName: "partitionMenu"
            title: qsTr("Run on rank (partition)")
            MenuItem { text: qsTr("None: rank 0 (Alt+−)"); onTriggered: canvas.setPartitionFromMenu(-1) }
            MenuItem { text: qsTr("Rank 0 (Alt+0)"); onTriggered: canvas.setPartitionFromMenu(0) }
            MenuItem { text: qsTr("Rank 1 (Alt+1)"); onTriggered: canvas.setPartitionFromMenu(1) }
            MenuItem { text: qsTr("Rank 2 (Alt+2)"); onTriggered: canvas.setPartitionFromMenu(2) }
            MenuItem { text: qsTr("Rank 3 (Alt+3)"); onTriggered: canvas.setPartitionFromMenu(3) }
        }
        MenuSeparator {}
        MenuItem { text: qsTr("Delete"); onTriggered: canvas.document.deleteSelection() }
    }

    // The node the menu was opened on, with the rest of the selection if it is part of it, goes to `partition`.
    function setPartitionFromMenu(partition) {
        const id = nodeMenu.nodeId
        if (!document.selection.hasNode(id)) document.selection.selectNode(id, false)
        showRefusal(document.setPartitionOfSelection(partition))
    }
    function showRefusal(why) { if (why.length > 0) toast.show(why, Qt.point(width / 2, height / 2)) }

    Keys.onPressed: (event) => {
        const step = (event.modifiers & Qt.ShiftModifier) ? Theme.gridStep * 5 : Theme.gridStep
        if (event.key === Qt.Key_Space && !event.isAutoRepeat) { spaceHeld = true; event.accepted = true; return }
        if (document.selection.nodeCount > 0) {
            if (event.key === Qt.Key_Left) { document.nudgeSelection(-step, 0); event.accepted = true }
            else if (event.key === Qt.Key_Right) { document.nudgeSelection(step, 0); event.accepted = true }
            else if (event.key === Qt.Key_Up) { document.nudgeSelection(0, -step); event.accepted = true }
            else if (event.key === Qt.Key_Down) { document.nudgeSelection(0, step); event.accepted = true }
            if (event.accepted) return
        }
        if (event.key === Qt.Key_Left) { panX += 60; event.accepted = true }
        else if (event.key === Qt.Key_Right) { panX -= 60; event.accepted = true }
        else if (event.key === Qt.Key_Up) { panY += 60; event.accepted = true }
        else if (event.key === Qt.Key_Down) { panY -= 60; event.accepted = true }
        else if ((event.modifiers & Qt.AltModifier) && document.selection.nodeCount > 0
                 && ((event.key >= Qt.Key_0 && event.key <= Qt.Key_9) || event.key === Qt.Key_Minus)) {
            showRefusal(document.setPartitionOfSelection(event.key === Qt.Key_Minus ? -1 : event.key - Qt.Key_0))
            event.accepted = true
        }
        else if (event.key === Qt.Key_N && event.modifiers === Qt.NoModifier) {
            const p = viewCentre()
            document.addNote(p.x, p.y, "")
            event.accepted = true
        }
        else if (event.key === Qt.Key_Tab) {
            const p = toCanvas(width / 2, height / 3)
            quickAddRequested(width / 2, height / 3, p.x, p.y)
            event.accepted = true
        }
    }
    Keys.onReleased: (event) => { if (event.key === Qt.Key_Space && !event.isAutoRepeat) spaceHeld = false }
}
