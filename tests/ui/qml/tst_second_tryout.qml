// What a second new user's try-out found, each checked in the real editor window: the unsaved-changes
// box ignores the letter of "Don't Save", wire labels and skew pills keep a finished run's final
// values (dimmed) until an edit, the plots' time axis fits a short run, the canvas/bottom-panel split
// drags and is remembered, a subgraph node's inspector fits its width, the editor's internal nodes
// stay out of the plots.
import QtQuick
import QtTest

TestCase {
    id: test
    name: "SecondTryout"
    when: windowShown

    property var window: null
    property var document: window ? window.graphDocument : null
    property var canvas: window ? window.graphCanvas : null
    property var run: window ? window.runController : null

    function makeWindow() {
        const component = Qt.createComponent("qrc:/qt/qml/Isochron/Ui/qml/Main.qml")
        verify(component.status === Component.Ready, component.errorString())
        const made = component.createObject(null, {width: 1440, height: 880})
        verify(made)
        waitForRendering(made.contentItem)
        return made
    }
    function closeWindow() {
        run.stopAll()
        tryVerify(() => !run.running, 20000)
        document.newGraph()
        window.width = 1500
        window.height = 950
        window.close()
        window.destroy()
        window = null
        wait(0)  // deletes it now: its settings are written as it goes
    }
    function init() { window = makeWindow() }
    function cleanup() {
        if (!window) return
        if (splitToRestore) window.centerSplitView.restoreState(splitToRestore)  // saved as the window closes
        splitToRestore = null
        closeWindow()
    }
    function root() { return window.contentItem.parent }
    function findAll(item, name, found) {
        found = found || []
        if (!item) return found
        if (item.objectName === name) found.push(item)
        const children = item.children || []
        for (let i = 0; i < children.length; ++i) findAll(children[i], name, found)
        return found
    }
    function shownLabels() { return findAll(canvas, "liveLabel").filter(l => l.visible && l.parent.visible) }

    function test_dontSaveAnswersNoLetterKey() {
        document.addNode("generators.signal_generator", 0, 0)
        verify(document.modified)
        let discarded = false
        window.whenSaved(() => { discarded = true })
        const dontSave = () => findAll(root(), "messageButton_discard").find(b => b.visible && b.text === "Don't Save")
        tryVerify(() => dontSave() !== undefined, 20000, "the unsaved-changes box opens")
        keyClick(Qt.Key_D)  // typed for another window
        verify(dontSave() !== undefined, "a bare 'd' closed the box")
        verify(!discarded, "a bare 'd' discarded the changes")
        verify(dontSave().contentItem.text.indexOf("<u>") < 0, "Don't Save shows no accelerator")
        keyClick(Qt.Key_Escape)
        tryVerify(() => dontSave() === undefined, 20000, "Escape cancels")
        verify(!discarded)
        verify(document.modified, "the changes are still there")
    }

    function test_wireLabelsAndSkewKeepTheFinalValuesUntilAnEdit() {
        window.openFile(sourceDirectory + "/samples/fusion-two-arrays.isograph.json")
        // Unpaced, the sample runs in about 10 ms: no telemetry snapshot falls inside it. Paced, it
        // lasts a few seconds, and its lags and skew must outlive the run.
        compare(document.setParameter("a", "pace", 1), "")
        compare(document.setParameter("b", "pace", 1), "")
        run.start()
        tryCompare(run, "state", "finished", 30000)
        waitForRendering(window.contentItem)
        const lagging = shownLabels().filter(l => l.children[0].text.indexOf("wm ") >= 0)
        verify(lagging.length >= 2, "watermark lags stay on the wires after the run: " + shownLabels().map(l => l.children[0].text))
        for (const label of lagging) verify(label.opacity < 0.9, "a final value is dimmed")
        const pills = findAll(canvas, "skewPill").filter(p => p.visible && p.children[0].text.indexOf("skew ") === 0)
        verify(pills.length >= 1, "the join keeps its inputs' skew")
        verify(pills[0].opacity < 1, "a final skew is dimmed")
        verify(run.telemetry.nodes.indexOf("editor_positions") < 0, "the editor's tap is not listed in the plots")
        verify(run.telemetry.nodes.indexOf("join") >= 0 || run.telemetry.nodes.length > 3, "the graph's nodes are listed")
        compare(document.setParameter("a", "pace", 0), "")  // an edit: the values describe another graph
        tryVerify(() => shownLabels().length === 0, 20000, "an edit clears the final values")
        tryVerify(() => findAll(canvas, "skewPill").every(p => !p.visible), 20000, "and the skew")
    }

    function test_plotTimeAxisFitsAShortRun() {
        window.openFile(sourceDirectory + "/samples/quickstart.isograph.json")
        window.bottomTab = 0
        run.start()
        tryCompare(run, "state", "finished", 30000)
        waitForRendering(window.contentItem)
        const cards = findAll(window.contentItem, "plotCard").filter(c => c.visible && c.plot)
        verify(cards.length >= 3, "live plots shown")
        verify(run.elapsed < 30, "the sample runs shorter than the window (" + run.elapsed + " s)")
        for (const card of cards) {
            compare(card.plot.timeFrom, 0)
            verify(card.plot.timeTo <= run.elapsed + 1e-9 && card.plot.timeTo > 0.75 * run.elapsed,
                   "the axis ends at the run's end (" + card.plot.timeTo + " s for a " + run.elapsed + " s run)")
        }
    }

    /// Drag the canvas/bottom-panel handle of the current window by `dy` px (in window coordinates:
    /// the handle moves under the pointer).
    function dragSplitHandle(dy) {
        const handle = findAll(root(), "centerSplitHandle")[0]
        const start = handle.mapToItem(window.contentItem, handle.width / 2, handle.height / 2 + 2)  // beside the line: on its grip
        mousePress(window.contentItem, start.x, start.y)
        for (let step = 1; step <= 10; ++step) mouseMove(window.contentItem, start.x, start.y + dy * step / 10)
        mouseRelease(window.contentItem, start.x, start.y + dy)
    }
    property var splitToRestore: null  // the split as it was before a test dragged it (settings outlive the test)

    function test_bottomPanelResizesByDraggingAndIsRemembered() {
        const handle = findAll(root(), "centerSplitHandle")[0]
        verify(handle, "a handle between the canvas and the bottom panel")
        verify(handle.containmentMask.height >= 5, "the handle grabs " + handle.containmentMask.height + " px: too thin")
        splitToRestore = window.centerSplitView.saveState()
        const panel = findAll(window.contentItem, "bottomPanel")[0]
        const before = panel.height
        dragSplitHandle(-200)
        tryVerify(() => Math.abs(panel.height - (before + 200)) <= 2, 20000, "dragging the handle up 200 px grows the panel by as much (" + before + " → " + panel.height + ")")
        const grown = panel.height
        closeWindow()
        window = makeWindow()
        const again = findAll(window.contentItem, "bottomPanel")[0]
        tryVerify(() => Math.abs(again.height - grown) <= 2, 20000, "a new window has the dragged height (" + again.height + " vs " + grown + ")")
    }
    function test_subgraphInspectorFitsItsWidth() {
        window.openFile(sourceDirectory + "/samples/fusion-two-arrays.isograph.json")
        document.selection.selectNode("a")
        const inspector = findAll(window.contentItem, "inspector")[0]
        waitForRendering(window.contentItem)
        tryVerify(() => findAll(inspector, "inspectorOrigin").some(t => t.visible && t.text.indexOf("subgraph") === 0), 20000, "the subgraph's origin line")
        const origin = findAll(inspector, "inspectorOrigin")[0]
        verify(origin.truncated, "the long path is elided")
        const overflowing = []
        const visit = (item) => {
            if (!item.visible) return
            if (item.width > 0 && (item.text !== undefined || item.objectName === "parameterField")) {
                const right = item.mapToItem(inspector, item.width, 0).x
                if (right > inspector.width + 1) overflowing.push((item.text || item.objectName) + " reaches " + right)
            }
            const children = item.children || []
            for (let i = 0; i < children.length; ++i) visit(children[i])
        }
        visit(inspector)
        compare(overflowing, [], "everything within the inspector's " + inspector.width + " px")
    }
}
