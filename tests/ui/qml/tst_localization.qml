// The localization view in the real editor window: a graph that localizes shows the Localization
// tab, running it fills the event list with the recording's four sounds, selecting a row highlights
// it, Play without an output device explains itself in a toast, a frame-wise graph shows the
// bearing-time plot (azimuth up, time to the right over the whole recording, its title clear of the
// axis labels, a sound's bar selects it), and a graph that triangulates shows the map; nothing logs a
// TypeError as the time axis changes or the window closes.
import QtQuick
import QtTest
import Isochron.Ui

TestCase {
    id: test
    name: "Localization"
    when: windowShown

    property var window: null

    function init() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        window = component.createObject(null, {width: 1400, height: 900})
        verify(window)
        waitForRendering(window.contentItem)
    }
    function cleanup() {
        if (!window) return  // the test closed it itself
        window.runController.stopAll()
        tryVerify(() => !window.runController.running, 20000)
        window.graphDocument.newGraph()
        window.close()
        window.destroy()
        window = null
    }

    function findAll(item, name, found) {
        found = found || []
        if (!item) return found
        if (item.objectName === name) found.push(item)
        const children = item.children || []
        for (let i = 0; i < children.length; ++i) findAll(children[i], name, found)
        return found
    }

    function test_tabOnlyForLocalizationGraphs() {
        const tab = findChild(window, "localizationTab")
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")
        verify(!tab.visible)
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        verify(tab.visible)
    }

    function test_mapWithSeveralArrays() {
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        window.bottomTab = 3
        const map = findChild(window, "sourceMap")
        tryVerify(() => findChild(window, "bearingPlot").visible, 20000, "the localization view is shown")
        verify(!map.visible, "one array: no map")
        window.openFile(sourceDirectory + "/tests/ui/data/two-arrays.isograph.json")
        tryVerify(() => map.visible, 20000, "a graph that triangulates shows the map")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        compare(findChild(window, "eventList").count, 8)
        verify(map.width > 50 && map.height > 50)
    }

    function test_plotFrontUpAndCounterClockwise() {
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        window.bottomTab = 3
        const plot = findChild(window, "bearingPlot")
        tryVerify(() => plot.visible && plot.radius > 20, 20000)
        waitForRendering(plot)
        const cx = plot.width / 2, cy = plot.height / 2, r = plot.radius
        const front = plot.pointFor(0, 0), left = plot.pointFor(90, 0), back = plot.pointFor(180, 0), up = plot.pointFor(0, 90)
        fuzzyCompare(front.x, cx, 0.01); fuzzyCompare(front.y, cy - r, 0.01)
        fuzzyCompare(left.x, cx - r, 0.01); fuzzyCompare(left.y, cy, 0.01)
        fuzzyCompare(back.y, cy + r, 0.01)
        fuzzyCompare(up.x, cx, 0.01); fuzzyCompare(up.y, cy, 0.01)
        // Clicking the dot of the sound at 242° (the oldest row) selects it.
        const dot = plot.pointFor(242.3, 0)
        compare(plot.rowAt(dot.x, dot.y), 3)
        mouseClick(plot, dot.x, dot.y)
        compare(window.runController.localization.events.selectedRow, 3)
    }

    function test_bearingTimePlot() {
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        window.bottomTab = 3
        const plot = findChild(window, "bearingTimePlot")
        tryVerify(() => plot.visible && plot.width > 50 && plot.height > 20, 20000, "a frame-wise graph shows the bearing-time plot")
        waitForRendering(plot)
        fuzzyCompare(plot.yFor(0), plot.height, 0.01)
        fuzzyCompare(plot.yFor(360), 0, 0.01)
        const events = window.runController.localization.events
        verify(plot.xFor(events.nowSeconds) <= plot.width + 0.01, "now at the right edge")
        // The time axis fits the file (about 3 s) from its start, not a fixed 30 s.
        verify(plot.timeFrom <= 0.372 && plot.timeFrom >= 0, "from the stream's start: " + plot.timeFrom)
        verify(plot.timeTo >= 2.684 && plot.timeTo < 10, "to the end of the recording: " + plot.timeTo)
        verify(plot.timeTicks.length >= 2, "labelled times")
        // The title and legend sit above the plot, clear of its 360° label.
        const legend = findChild(window, "bearingTimeLegend")
        const top = findAll(plot, "azimuthLabel").find(l => l.text === "360°")
        verify(legend.mapToItem(plot, 0, legend.height).y <= top.y, "the title overlaps the 360° label")
        // The sound at 81 degrees (row 2) is a bar over its span: clicking it selects it.
        const x = (plot.xFor(1.116) + plot.xFor(1.18)) / 2, y = plot.yFor(81.1)
        compare(plot.rowAt(x, y), 2)
        mouseClick(plot, x, y)
        compare(events.selectedRow, 2)
        window.openFile(sourceDirectory + "/samples/xstream-detectaudio-localize.isograph.json")
        tryVerify(() => !plot.visible, 20000, "a per-event graph has no tracks to plot")
    }

    function test_noTypeErrorsAsTheTimeAxisChangesOrTheWindowCloses() {
        // The time labels and the legend's track swatches were anchored to their parent, which a
        // Repeater's delegate loses as it goes: "TypeError: Cannot read property 'bottom' of null".
        failOnWarning(/TypeError/)
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        window.bottomTab = 3
        window.runController.start()
        tryCompare(window.runController, "state", "finished", 20000)
        const plot = findChild(window, "bearingTimePlot")
        tryVerify(() => plot.visible && plot.timeTicks.length >= 2, 20000, "the time axis is labelled")
        waitForRendering(plot)
        for (const width of [700, 1900, 1400]) {  // other ticks each time: labels go and come
            window.width = width
            waitForRendering(window.contentItem)
        }
        window.openFile(sourceDirectory + "/samples/spectrum-watch.isograph.json")  // no localization: no ticks
        waitForRendering(window.contentItem)
        window.close()
        window.destroy()
        window = null
        wait(0)  // destroy() is deferred: wait() delivers the deferred deletions, under failOnWarning
    }

    function test_runShowsEventsAndPlays() {
        window.openFile(sourceDirectory + "/samples/localize-file.isograph.json")
        mouseClick(findChild(window, "runButton"))
        const panel = findChild(window, "localizationPanel")
        tryVerify(() => panel.visible, 20000, "running a localization graph shows its view")
        tryCompare(window.runController, "state", "finished", 20000)
        const list = findChild(panel, "eventList")
        tryCompare(list, "count", 4, 20000)
        waitForRendering(list)
        const first = list.itemAtIndex(3)  // the oldest: the source at 242°
        verify(first)
        verify(Math.abs(first.azimuth - 242.3) < 5, "azimuth " + first.azimuth)
        mouseClick(first, 20, first.height / 2)
        compare(window.runController.localization.events.selectedRow, 3)
        verify(Qt.colorEqual(first.color, Theme.accentSoft), "the selected row is highlighted")
        keyClick(Qt.Key_Up)
        compare(window.runController.localization.events.selectedRow, 2)
        keyClick(Qt.Key_Down)
        compare(window.runController.localization.events.selectedRow, 3)
        const play = findChild(first, "playButton")
        mouseClick(play)
        const toast = findChild(panel, "localizationToast")
        tryVerify(() => toast.visible, 20000, "no output device: a message, not a crash")
        verify(toast.text.indexOf("output") >= 0, toast.text)
    }
}
